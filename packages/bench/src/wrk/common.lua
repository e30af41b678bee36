-- Shared by every wrk script of the benchmarks: counts answers with the expected status
-- (the first script argument) and prints one machine-readable line at the end.
-- Arguments after `--`: expected status, then the script's own (see each script).
local threads = {}

function setup(thread)
  thread:set("tid", #threads + 1)
  table.insert(threads, thread)
end

ok = 0
unexpected = 0
last_unexpected = ""

function response(status, headers, body)
  if status == expected then
    ok = ok + 1
  else
    unexpected = unexpected + 1
    last_unexpected = tostring(status) .. " " .. string.sub(body or "", 1, 200)
  end
end

local function q(s)
  return '"' .. string.gsub(string.gsub(s, '\\', '\\\\'), '"', '\\"') .. '"'
end

function done(summary, latency, requests)
  local ok_total, bad, sample = 0, 0, ""
  for _, t in ipairs(threads) do
    ok_total = ok_total + t:get("ok")
    bad = bad + t:get("unexpected")
    local s = t:get("last_unexpected")
    if s ~= "" then sample = s end
  end
  local e = summary.errors
  io.write(string.format(
    'WRK_RESULT {"requests":%d,"duration_us":%d,"ok":%d,"unexpected":%d,"sample":%s,' ..
    '"errors":{"connect":%d,"read":%d,"write":%d,"timeout":%d},"p50_us":%d,"p99_us":%d}\n',
    summary.requests, summary.duration, ok_total, bad, q(sample),
    e.connect, e.read, e.write, e.timeout, latency:percentile(50), latency:percentile(99)))
end
