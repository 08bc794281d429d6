"""The measurements behind `uu bench`; the app never imports them.

`engine` (games per second, invariant checks), `bots` (bots against bots, the hint's speed), `app` and
`app_browser` with `measures` (the Voila app: one learner in Chromium, a class of emulated learners, memory),
`learner`, `wire` and `crowd` (the emulated learner: a page's HTTP requests and websocket messages, no browser),
`hostile` (a careless or hostile visitor).
"""
