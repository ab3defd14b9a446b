-- POST of N new characters per request, every name unique. Arguments: KIND PATH PREFIX N [Header: value ...]
--   KIND "batch": PATH is /batch and the body {"requests":[{"method":"POST","url":"/characters","body":{…}}, …]}
--   KIND "array": PATH is /characters and the body a JSON array of N characters (bulk create)
--   PREFIX is new for every wrk run and each thread adds its number (as post.lua), so no name repeats.
dofile("common.lua")

local kind, path, prefix, count, h
local n = 0

function init(args)
  kind, path, prefix, count = args[1], args[2], args[3], tonumber(args[4])
  h = headers_from(args, 5)
  h["Content-Type"] = "application/json"
  prefix = prefix .. "-" .. tostring(thread_id or 1)
end

function request()
  local items = {}
  for i = 1, count do
    n = n + 1
    local record = '{"name":"bench ' .. prefix .. '-' .. n .. '","number":"+1-555-0199"}'
    if kind == "batch" then
      items[i] = '{"method":"POST","url":"/characters","body":' .. record .. '}'
    else
      items[i] = record
    end
  end
  local list = "[" .. table.concat(items, ",") .. "]"
  local body = kind == "batch" and ('{"requests":' .. list .. '}') or list
  return wrk.format("POST", path, h, body)
end
