import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeMultipart } from './form-body.js';
import { parseMultipart } from './multipart.js';
import { PayloadError } from './payload-error.js';

describe('parseMultipart', () => {
  it('reads what undici\'s FormData serializer writes, bytes intact', async () => {
    const fd = new FormData();
    fd.append('subject', 'Grüße — "quoted"');
    fd.append('empty', '');
    const bytes = Buffer.from([0, 1, 2, 255, 13, 10, 45, 45]);
    fd.append('attachment1', new Blob([bytes], { type: 'application/octet-stream' }), 'bin.dat');
    const req = new Request('http://x/', { method: 'POST', body: fd });
    const body = Buffer.from(await req.arrayBuffer());
    const parts = parseMultipart(body, req.headers.get('content-type')!);
    assert.deepEqual(parts.map((p) => p.name), ['subject', 'empty', 'attachment1']);
    assert.equal(parts[0]!.data.toString('utf8'), 'Grüße — "quoted"');
    assert.equal(parts[1]!.data.length, 0);
    assert.equal(parts[2]!.filename, 'bin.dat');
    assert.equal(parts[2]!.contentType, 'application/octet-stream');
    assert.deepEqual(parts[2]!.data, bytes);
  });

  it('round-trips encodeMultipart, and undici parses it too', async () => {
    const enc = encodeMultipart({ a: '1', b: 'two\r\nlines' }, [{ field: 'f', filename: 'x.txt', contentType: 'text/plain', data: 'hi' }]);
    const parts = parseMultipart(enc.body, enc.contentType);
    assert.deepEqual(parts.map((p) => [p.name, p.data.toString()]), [['a', '1'], ['b', 'two\r\nlines'], ['f', 'hi']]);
    const fd = await new Response(enc.body, { headers: { 'content-type': enc.contentType } }).formData();
    assert.equal(fd.get('b'), 'two\r\nlines');
  });

  it('tolerates a preamble, LF line endings and a quoted boundary', () => {
    const body = Buffer.from('preamble text\n--b; x\nContent-Disposition: form-data; name="a"\n\nvalue\n--b; x--\n');
    const parts = parseMultipart(body, 'multipart/form-data; boundary="b; x"');
    assert.equal(parts.length, 1);
    assert.equal(parts[0]!.data.toString(), 'value');
  });

  it('reads RFC 5987 filenames and escaped quotes in part names', () => {
    const body = Buffer.from(`--zz\r\nContent-Disposition: form-data; name="f\\"x"; filename="a.txt"; filename*=UTF-8''%C3%A9t%C3%A9.txt\r\n\r\nv\r\n--zz--\r\n`);
    const [part] = parseMultipart(body, 'multipart/form-data; boundary=zz');
    assert.equal(part!.name, 'f"x');
    assert.equal(part!.filename, 'été.txt');
  });

  it('throws PayloadError on broken bodies', () => {
    assert.throws(() => parseMultipart(Buffer.from('x'), 'multipart/form-data'), PayloadError);
    assert.throws(() => parseMultipart(Buffer.from('nothing here'), 'multipart/form-data; boundary=zz'), /boundary/);
    assert.throws(() => parseMultipart(Buffer.from('--zz\r\nContent-Disposition: form-data; name="a"\r\n\r\nvalue'), 'multipart/form-data; boundary=zz'), /closing boundary/);
    assert.throws(() => parseMultipart(Buffer.from('--zz\r\nContent-Type: text/plain\r\n\r\nv\r\n--zz--'), 'multipart/form-data; boundary=zz'), /name/);
  });
});
