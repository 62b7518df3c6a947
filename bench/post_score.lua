-- wrk script: POST a hand to /v1/hands/score
wrk.method = "POST"
wrk.body = '{"cards": ["5H", "5C", "5S", "JD"], "starter": "5D"}'
wrk.headers["Content-Type"] = "application/json"
