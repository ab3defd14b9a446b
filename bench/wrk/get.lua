-- GET load. Arguments: PATH COUNT LIMIT [Header: value ...]
--   PATH  may contain {n}, replaced by 1..COUNT in turn (COUNT 0 or 1: the fixed PATH);
--   LIMIT when > 0, each thread stops after sending that many requests (the memory row's 10k / 1M);
--   headers such as "Authorization: Bearer rw_…" go on every request.
-- Requests are formatted once in init(), so request() costs wrk one table lookup.
dofile("common.lua")

local reqs = {}
local next_index = 0
local sent = 0
local limit = 0

function init(args)
  local path, count = args[1], tonumber(args[2]) or 0
  limit = tonumber(args[3]) or 0
  local h = headers_from(args, 4)
  if count < 1 then count = 1 end
  for n = 1, count do
    reqs[n] = wrk.format("GET", (path:gsub("{n}", tostring(n))), h)
  end
end

function request()
  sent = sent + 1
  if limit > 0 and sent >= limit then wrk.thread:stop() end
  next_index = next_index % #reqs + 1
  return reqs[next_index]
end
