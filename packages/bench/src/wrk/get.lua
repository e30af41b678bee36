-- GET of a fixed path. Arguments: expected status, [bearer key].
function init(args)
  expected = tonumber(args[1])
  if args[2] and args[2] ~= "" then
    wrk.headers["Authorization"] = "Bearer " .. args[2]
  end
end
