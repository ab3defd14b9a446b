-- PUT, PATCH or DELETE load on existing records. Arguments: METHOD PATH FIRST COUNT ONCE PREFIX CONTENT_TYPE BODY THREADS [Header: value ...]
--   PATH has {n}, replaced by the ids FIRST..FIRST+COUNT-1 in turn: round and round (ONCE 0: PUT, PATCH),
--   or each id once, after which the thread stops and reports that it ran out (ONCE 1: DELETE, where
--   a second request to an id would be a 404). With THREADS wrk threads, thread t takes every
--   THREADS-th id from the t-th, so no two threads send the same id. BODY ("-" for none) has {tag}, replaced by
--   "<PREFIX>-<thread>-<k>" with k counting the thread's requests: every body is new, so a unique name
--   never repeats and no PATCH leaves the record as it was (which would write nothing). PREFIX is new
--   for every wrk run (bench/wrk.ts), so bodies never repeat across runs either.
dofile("common.lua")

local method, path, first, count, once, prefix, ctype, body, threads, h
local k = 0

function init(args)
  method, path = args[1], args[2]
  first, count, once = tonumber(args[3]), tonumber(args[4]), args[5] == "1"
  prefix, ctype, body = args[6] .. "-" .. tostring(thread_id or 1), args[7], args[8]
  threads = tonumber(args[9]) or 1
  h = headers_from(args, 10)
  if body ~= "-" then h["Content-Type"] = ctype end
end

function request()
  local slot = k * threads + (thread_id or 1) - 1
  if once and slot >= count then
    exhausted = true
    wrk.thread:stop()
  end
  local id = first + (slot % count)
  k = k + 1
  local p = path:gsub("{n}", tostring(id))
  if body == "-" then return wrk.format(method, p, h) end
  return wrk.format(method, p, h, (body:gsub("{tag}", prefix .. "-" .. k)))
end
