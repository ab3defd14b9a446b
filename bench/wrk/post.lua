-- POST /characters with a JSON body whose unique `name` never repeats. Arguments: PATH PREFIX [Header: value ...]
--   PREFIX is different for every wrk run (bench/wrk.ts makes it from the bench's pid and a run
--   counter), and each thread adds its own number, so names never collide across runs or threads:
--   "bench <PREFIX>-<thread>-<n>". A repeated name would be a 409 on Restwell's unique `name`.
dofile("common.lua")

local path, prefix, h
local n = 0

function init(args)
  path, prefix = args[1], args[2]
  h = headers_from(args, 3)
  h["Content-Type"] = "application/json"
  prefix = prefix .. "-" .. tostring(thread_id or 1)
end

function request()
  n = n + 1
  return wrk.format("POST", path, h, '{"name":"bench ' .. prefix .. '-' .. n .. '","number":"+1-555-0199"}')
end
