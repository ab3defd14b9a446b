-- Shared by every bench script (wrk runs with bench/wrk/ as its working directory, so dofile finds it).
-- Counts the status of every response per thread, and done() prints one machine-readable line that
-- bench/wrk.ts parses: requests, duration, exact p50/p99 (microseconds), socket errors, statuses, and
-- whether a script ran out of prepared requests.

local threads = {}

function setup(thread)
  thread:set("thread_id", #threads + 1)
  table.insert(threads, thread)
end

statuses = {}
exhausted = false

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

-- Arguments after `--` as "Name: value" header lines, from index `from` on, merged over wrk's own
-- headers (Host), so every request the script formats carries them.
function headers_from(args, from)
  local h = {}
  for name, value in pairs(wrk.headers) do h[name] = value end
  for i = from, #args do
    local name, value = args[i]:match("^([^:]+):%s*(.*)$")
    if name then h[name] = value end
  end
  return h
end

function done(summary, latency, requests)
  local total = {}
  local ran_out = false
  for _, t in ipairs(threads) do
    local s = t:get("statuses") or {}
    for code, n in pairs(s) do total[code] = (total[code] or 0) + n end
    if t:get("exhausted") then ran_out = true end
  end
  local codes = {}
  for code, n in pairs(total) do table.insert(codes, string.format('"%d":%d', code, n)) end
  local e = summary.errors
  io.write(string.format(
    '@@wrk {"requests":%d,"duration_us":%d,"p50_us":%d,"p99_us":%d,"connect":%d,"read":%d,"write":%d,"timeout":%d,"status_errors":%d,"exhausted":%s,"statuses":{%s}}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect, e.read, e.write, e.timeout, e.status, tostring(ran_out), table.concat(codes, ",")))
end
