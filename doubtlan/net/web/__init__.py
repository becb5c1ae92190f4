"""Browser seats: the table app served to browsers on the network (server.py), one app
process per tab (session.py), in a page with nothing from outside the host (page.py).

Nothing is imported here: the app's own process (tui/app.py) reads ``session`` alone,
without the web server's libraries."""
