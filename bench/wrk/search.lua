-- GET with a new search term each request. Arguments: PREFIX COUNT
--   each request is PREFIX followed by a six-digit number (100000-999999, stepping by a prime so
--   consecutive requests share no digits in order), COUNT of them prepared in init() and cycled.
dofile("common.lua")

local reqs = {}
local next_index = 0

function init(args)
  local prefix, count = args[1], tonumber(args[2]) or 1
  for n = 1, count do
    reqs[n] = wrk.format("GET", prefix .. tostring(100000 + (n * 7919) % 900000))
  end
end

function request()
  next_index = next_index % #reqs + 1
  return reqs[next_index]
end
