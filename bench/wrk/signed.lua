-- Standard Webhooks deliveries prepared and signed in TypeScript (bench/scenarios/webhooks.ts), one per
-- line: "<webhook-id>\t<webhook-timestamp>\t<webhook-signature>\t<body>". Arguments: PATH FILE
--   Thread k reads FILE.k (one file per thread, so no id is sent twice), line by line as it goes.
--   Every line is used at most once: when a thread's file runs out it stops (its last request is
--   sent once more to end the connection's cycle, a duplicate id the row's check flags) and the
--   run reports "exhausted", which bench/wrk.ts turns into a warning on the row.
dofile("common.lua")

local path, file, h
local last

function init(args)
  path = args[1]
  file = assert(io.open(args[2] .. "." .. tostring(thread_id or 1), "r"))
  h = headers_from(args, 3)
  h["Content-Type"] = "application/json"
end

function request()
  local line = file:read("*l")
  if not line then
    exhausted = true
    wrk.thread:stop()
    return last
  end
  local id, ts, sig, body = line:match("^([^\t]*)\t([^\t]*)\t([^\t]*)\t(.*)$")
  h["webhook-id"] = id
  h["webhook-timestamp"] = ts
  h["webhook-signature"] = sig
  last = wrk.format("POST", path, h, body)
  return last
end
