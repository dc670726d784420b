#!/usr/bin/env python3
"""Loads linkhost fallback pages in headless Chromium as a computer and as an Android phone.

Run by the Swift test BrowserTests against a live server whose Rowhni site has an Android app.
As a computer (a desktop Chrome user agent, since headless Chromium's own one is classed as a
bot): each page must show exactly one inline SVG QR code in #qr-code, run no script but ours, and
break no rule of its content security policy; a screenshot of the window is saved for the Swift
test, which reads the code with zbarimg. As an Android phone: the open button must be an
intent:// link and the store button Google Play's. Prints one JSON object; exits non-zero if any
check failed.
"""
import argparse
import base64
import json
import sys

# The tests may leave nothing in the source tree: no __pycache__ beside the imported helper.
sys.dont_write_bytecode = True
import browser_check  # noqa: E402  (after the switch above)

DESKTOP_UA = ("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
              "Chrome/131.0.0.0 Safari/537.36")
ANDROID_UA = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
              "Chrome/131.0.0.0 Mobile Safari/537.36")


def make_driver(port, mobile):
    if mobile:
        return browser_check.make_driver(port, mobile=True, user_agent=ANDROID_UA)
    return browser_check.make_driver(port, mobile=False, user_agent=DESKTOP_UA, window=(1280, 1000))


def policy_violations(driver):
    return [entry.get("message", "") for entry in driver.get_log("browser")
            if "Content Security Policy" in entry.get("message", "")]


def check_desktop(driver, name, url, out):
    failures = []
    driver.get(url)
    state = driver.execute_script("""
        const figure = document.getElementById('qr-code');
        if (figure) { figure.scrollIntoView({block: 'center'}); }
        const box = figure ? figure.querySelector('svg').getBoundingClientRect() : null;
        return {
          scripts: Array.from(document.scripts).map(s => s.getAttribute('src')),
          svgs: document.querySelectorAll('svg').length,
          svgsInFigure: figure ? figure.querySelectorAll('svg').length : 0,
          caption: figure ? figure.querySelector('figcaption').textContent : null,
          box: box ? {x: box.x, y: box.y, width: box.width, height: box.height} : null,
          open: document.getElementById('open-app') ? document.getElementById('open-app').getAttribute('href') : null,
          store: document.getElementById('get-app').getAttribute('href'),
          codeFirst: figure ? Boolean(figure.compareDocumentPosition(document.querySelector('nav.actions')) & Node.DOCUMENT_POSITION_FOLLOWING) : false,
        };""")
    # On a computer the code is the way to the app: it comes before the buttons, and there is no
    # custom-scheme button (it would do nothing there).
    if state["open"] is not None:
        failures.append("%s: a computer got an open-in-app button: %r" % (name, state["open"]))
    if not state["codeFirst"]:
        failures.append("%s: the QR code does not come before the buttons" % name)
    if state["scripts"] != ["/static/linkhost.js"]:
        failures.append("%s: unexpected scripts %r" % (name, state["scripts"]))
    if state["svgs"] != 1 or state["svgsInFigure"] != 1:
        failures.append("%s: expected one SVG, in #qr-code: %r" % (name, state))
    if not state["box"] or state["box"]["width"] < 100:
        failures.append("%s: the QR code is missing or too small: %r" % (name, state["box"]))
    failures += ["%s: %s" % (name, message) for message in policy_violations(driver)]
    path = "%s/%s-desktop.png" % (out, name)
    with open(path, "wb") as file:
        file.write(base64.b64decode(driver.get_screenshot_as_base64()))
    return {"name": name, "screenshot": path, "state": state}, failures


def check_android(driver, url):
    failures = []
    driver.get(url)
    state = driver.execute_script("""
        return {
          open: document.getElementById('open-app').getAttribute('href'),
          store: document.getElementById('get-app').getAttribute('href'),
          svgs: document.querySelectorAll('svg').length,
        };""")
    if not (state["open"] or "").startswith("intent://") or ";end" not in state["open"]:
        failures.append("android: the open button is not an intent link: %r" % state["open"])
    if not (state["store"] or "").startswith("https://play.google.com/"):
        failures.append("android: the store button is not Google Play: %r" % state["store"])
    if state["svgs"]:
        failures.append("android: a phone got a QR code")
    failures += ["android: %s" % message for message in policy_violations(driver)]
    return state, failures


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--page", action="append", default=[], help="NAME=URL, loaded as a computer")
    parser.add_argument("--android", required=True, help="a URL loaded as an Android phone")
    args = parser.parse_args()
    report = {"pages": [], "failures": []}

    driver = make_driver(args.port, mobile=False)
    try:
        for page in args.page:
            name, url = page.split("=", 1)
            result, failures = check_desktop(driver, name, url, args.out)
            report["pages"].append(result)
            report["failures"].extend(failures)
    finally:
        driver.quit()

    driver = make_driver(args.port, mobile=True)
    try:
        report["android"], failures = check_android(driver, args.android)
        report["failures"].extend(failures)
    finally:
        driver.quit()

    print(json.dumps(report, indent=2))
    return 1 if report["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
