-- POST of a sign-up with a fresh email, two answered fields and a full source on every request.
-- Arguments: expected status, run prefix, origin ("" for none), bearer key ("" for none).
function init(args)
  expected = tonumber(args[1])
  prefix = args[2]
  counter = 0
  headers = { ["Content-Type"] = "application/json" }
  if args[3] and args[3] ~= "" then headers["Origin"] = args[3] end
  if args[4] and args[4] ~= "" then headers["Authorization"] = "Bearer " .. args[4] end
  -- The same for every request: joined once, so a request costs wrk what subscribe.lua's does.
  extras = '"fields":{"company":"Analytical Engines Ltd","role":"Founder"},' ..
    '"source":{"utm_source":"newsletter","utm_medium":"email","utm_campaign":"launch-2026",' ..
    '"utm_term":"waitlist","utm_content":"header-link",' ..
    '"referrer":"https://news.example/posts/launch?ref=feed","landing":"https://bench.example/?utm_source=newsletter"}}'
end

function request()
  counter = counter + 1
  local body = '{"email":"' .. prefix .. '.' .. tid .. '.' .. counter .. '@bench-mail.example",' .. extras
  return wrk.format("POST", nil, headers, body)
end
