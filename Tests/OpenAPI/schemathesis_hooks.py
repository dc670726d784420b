"""Schemathesis hooks for OpenAPIPropertyTests (loaded through SCHEMATHESIS_HOOKS).

One constraint of the report API is relative to the server's clock and so cannot be a schema:
`openedAt` must lie within the last 7 days (the document says so in words, and a time outside is
refused with 400). In positive mode, where every generated body must be accepted, a generated
`openedAt` keeps its whole shape (time of day, seconds, fraction, offset) and only its date is moved
to three days ago, so the offset (at most a day either way) keeps it inside the window. Negative
cases are sent as generated.
"""
import datetime
import re

import schemathesis

DATE = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}")


@schemathesis.hook
def before_call(context, case, kwargs):
    meta = getattr(case, "meta", None)
    if meta is None or not meta.generation.mode.is_positive or not isinstance(case.body, dict):
        return
    opened = case.body.get("openedAt")
    if isinstance(opened, str):
        recent = (datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(days=3)).strftime("%Y-%m-%d")
        case.body["openedAt"] = DATE.sub(recent, opened, count=1)
