import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findMention, renderTemplate } from './reply-match.js';

const people = ['Homer', 'Homer Simpson', 'Marge', 'Bart', 'Dr. Nick', 'Zoë'].map((value) => ({ value, item: value }));

test('a name is found among surrounding words, in any case, with punctuation around it', () => {
  assert.equal(findMention('who is homer?', people), 'Homer');
  assert.equal(findMention('WHO IS MARGE!!!', people), 'Marge');
  assert.equal(findMention('  bart.', people), 'Bart');
  assert.equal(findMention('number for dr nick please', people), 'Dr. Nick');
  assert.equal(findMention('zoë?', people), 'Zoë');
});

test('the longest mention wins; parts of words do not count', () => {
  assert.equal(findMention('Homer Simpson, please', people), 'Homer Simpson');
  assert.equal(findMention('homers', people), undefined);
  assert.equal(findMention('bartholomew', people), undefined);
  assert.equal(findMention('', people), undefined);
  assert.equal(findMention('?!', people), undefined);
});

test('templates fill fields', () => {
  assert.equal(renderTemplate('{name}: {number}', { name: 'Homer', number: null }), 'Homer: ');
});
