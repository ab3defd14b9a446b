-- Standard Webhooks deliveries prepared and signed in TypeScript (bench/scenarios/webhooks.ts), one per
-- line: "<webhook-id>\t<webhook-timestamp>\t<webhook-signature>\t<body>". Arguments: PATH FILE
--   Thread k reads FILE.k (one file per thread, so no id is sent twice), line by line as it goes.
--   Every line is used at most once: when a thread's file runs out it stops, sending nothing more (an
--   empty request: no id is ever repeated), and the run reports "exhausted", which bench/context.ts
--   turns into a warning that flags the row. (wrk calls request() once before the run to check for
--   pipelining; that line is simply never sent.)
dofile("common.lua")

local path, file, h

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
    return ""
  end
  local id, ts, sig, body = line:match("^([^\t]*)\t([^\t]*)\t([^\t]*)\t(.*)$")
  h["webhook-id"] = id
  h["webhook-timestamp"] = ts
  h["webhook-signature"] = sig
  return wrk.format("POST", path, h, body)
end
