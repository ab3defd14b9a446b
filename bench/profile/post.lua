-- wrk script: POST /characters with a name that never repeats (the name is a unique field).
-- The prefix differs per run, so rounds against one database never collide.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local prefix = tostring(os.time()) .. "-" .. tostring(math.random(1, 1e9))
local n = 0
request = function()
  n = n + 1
  return wrk.format(nil, "/characters", nil, '{"name":"W ' .. prefix .. " " .. n .. '","number":"+1-555-0100"}')
end
