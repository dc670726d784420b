#!/usr/bin/env python3
"""Loads linkhost fallback pages in headless Chromium and checks what a visitor gets.

Run by the Swift test BrowserTests against a live server: Chromium resolves the product's hosts
to that server (--host-resolver-rules), so requests carry the real Host headers. Checks, per page:
no script from the URL ran (a payload sets window.__pwned; CSP and escaping must stop it), the
only script is our own, the buttons carry the expected hrefs, the copy button's script works, the
buttons' clicks are reported to /v1/events,
the stylesheet applied. Saves a mobile and a desktop screenshot and checks they are not blank.
Prints one JSON object; exits non-zero if any check failed.
"""
import argparse
import atexit
import os
import shutil
import tempfile
import base64
import json
import re
import struct
import sys
import time
import zlib

from selenium import webdriver
from selenium.common.exceptions import TimeoutException, UnexpectedAlertPresentException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

IPHONE_UA = ("Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 "
             "(KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1")
PWN = "window.__pwned=1"

# (name, url, status-kind, expected open-app href or None)
PAGES = [
    ("invite", "http://rowhni.com/addfriend?code=TEST123&utm_source=whatsapp", "link", "rowhni://addfriend?code=TEST123"),
    ("group", "http://rowhni.com/joingroup?code=ABC123", "link", "rowhni://joingroup?code=ABC123"),
    ("thread", "http://forums.somethingawful.com/showthread.php?threadid=456&pagenumber=2&userid=7", "link",
     "awful://threads/456/pages/2?userid=7"),
    ("broken-invite", "http://rowhni.com/addfriend", "bad-link", "rowhni://"),
    ("hostile-code", 'http://rowhni.com/addfriend?code="><script>' + PWN + '</script>', "bad-link", "rowhni://"),
    ("hostile-query", 'http://forums.somethingawful.com/showthread.php?threadid=456&x="><img src=x onerror="' + PWN + '">'
     "&noseen=<svg/onload=" + PWN + ">", "link", "awful://threads/456"),
    ("hostile-quote", "http://forums.somethingawful.com/showthread.php?threadid=456&q=' autofocus onfocus='" + PWN,
     "link", "awful://threads/456"),
    ("javascript-code", "http://rowhni.com/joingroup?code=javascript:" + PWN, "bad-link", "rowhni://"),
    ("hostile-path", "http://rowhni.com/%22%3E%3Cscript%3E" + PWN + "%3C/script%3E", "not-found", "rowhni://"),
]


def png_is_blank(data):
    """True when a PNG has (almost) one colour. Decodes 8-bit RGB/RGBA PNGs with zlib only."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return True
    pos, idat, width, height, channels = 8, b"", 0, 0, 4
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            channels = {2: 3, 6: 4}.get(colour, 4)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    previous = bytearray(stride)
    colours = set()
    offset = 0
    for _ in range(height):
        kind = raw[offset]
        line = bytearray(raw[offset + 1:offset + 1 + stride])
        offset += 1 + stride
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                predictor = left if pa <= pb and pa <= pc else (up if pb <= pc else corner)
                line[i] = (line[i] + predictor) & 255
        for x in range(0, stride, channels * 7):
            colours.add(bytes(line[x:x + 3]))
        previous = line
    return len(colours) < 8


def start_chromium(options):
    """Chromium through chromedriver, its temporary files (the profile and the single-instance
    socket folder, which Chromium leaves behind) in a folder of this process's own, removed when
    it exits."""
    folder = tempfile.mkdtemp(prefix="linkhost-chromium.")
    atexit.register(shutil.rmtree, folder, True)
    service = Service(shutil.which("chromedriver"), env=dict(os.environ, TMPDIR=folder))
    return webdriver.Chrome(service=service, options=options)


def make_driver(port, mobile, javascript=True, user_agent=None, window=(1280, 800)):
    """Headless Chromium with the product's hosts mapped to the server on `port`: a phone (an
    iPhone unless `user_agent` says otherwise) or a `window`-sized computer (headless Chromium's own
    user agent unless `user_agent` is given)."""
    options = webdriver.ChromeOptions()
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    options.binary_location = shutil.which("chromium")
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--host-resolver-rules=MAP rowhni.com 127.0.0.1:%d, MAP forums.somethingawful.com 127.0.0.1:%d" % (port, port),
                     "--lang=de-DE"]:
        options.add_argument(argument)
    if mobile:
        options.add_experimental_option("mobileEmulation", {
            "deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 2.0}, "userAgent": user_agent or IPHONE_UA})
    else:
        options.add_argument("--window-size=%d,%d" % window)
        if user_agent:
            options.add_argument("--user-agent=" + user_agent)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return start_chromium(options)


VIEW_TOKEN = re.compile(r"([?&])lh_view=([A-Za-z0-9_-]{16})(?=$|&)")


def split_token(href):
    """(href without its lh_view item, the token or None): a link's page hands each view's token on."""
    match = VIEW_TOKEN.search(href or "")
    if not match:
        return href, None
    rest = href[:match.start()] + (match.group(1) if href[match.end():] else "") + href[match.end() + 1:]
    return rest, match.group(2)


def check_page(driver, name, url, kind, expected_open):
    failures = []
    try:
        driver.get(url)
        driver.find_element(By.TAG_NAME, "main")
    except UnexpectedAlertPresentException:
        return ["%s: an alert opened: a script from the URL ran" % name]
    state = driver.execute_script("""
        const open = document.getElementById('open-app');
        const store = document.getElementById('get-app');
        const primary = document.querySelector('.button.primary');
        return {
          pwned: window.__pwned === 1,
          scripts: Array.from(document.scripts).map(s => s.getAttribute('src')),
          images: document.images.length,
          svgs: document.querySelectorAll('svg').length,
          autofocus: document.querySelectorAll('[autofocus],[onfocus],[onerror],[onload]').length,
          open: open ? open.getAttribute('href') : null,
          store: store ? store.getAttribute('href') : null,
          kind: document.body.className,
          lang: document.documentElement.lang,
          primaryBackground: primary ? getComputedStyle(primary).backgroundColor : null,
        };""")
    if state["pwned"]:
        failures.append("%s: a script from the URL ran" % name)
    if state["scripts"] != ["/static/linkhost.js"]:
        failures.append("%s: unexpected scripts %r" % (name, state["scripts"]))
    if state["images"] or state["svgs"] or state["autofocus"]:
        failures.append("%s: injected elements or handlers: %r" % (name, state))
    # A link's page puts this view's token on its open link; broken and unknown links have none.
    opened, token = split_token(state["open"])
    if opened != expected_open or (token is None) != (kind != "link"):
        failures.append("%s: open-app href %r, expected %r%s" % (name, state["open"], expected_open, " with a view token" if kind == "link" else ""))
    if not (state["store"] or "").startswith("https://apps.apple.com/"):
        failures.append("%s: store href %r" % (name, state["store"]))
    if state["kind"] != "page-" + kind:
        failures.append("%s: page kind %r, expected %r" % (name, state["kind"], kind))
    if state["primaryBackground"] in (None, "rgba(0, 0, 0, 0)", "transparent"):
        failures.append("%s: the stylesheet did not apply (%r)" % (name, state["primaryBackground"]))
    for entry in driver.get_log("browser"):
        message = entry.get("message", "")
        if "Content Security Policy" in message and "linkhost" in message:
            failures.append("%s: CSP blocked our own resource: %s" % (name, message))
    return failures


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    report = {"pages": [], "failures": [], "screenshots": {}}

    driver = make_driver(args.port, mobile=True)
    try:
        if "Mobile" not in driver.execute_script("return navigator.userAgent"):
            report["failures"].append("the iPhone user agent is not in effect")
        for name, url, kind, expected in PAGES:
            failures = check_page(driver, name, url, kind, expected)
            report["pages"].append({"name": name, "ok": not failures})
            report["failures"].extend(failures)
        # The copy button's script (from /static, allowed by the CSP) runs and answers.
        driver.get(PAGES[0][1])
        button = driver.find_element(By.ID, "copy-link")
        before = button.text
        button.click()
        # The text changes when the clipboard's promise settles, which may be after click returns.
        try:
            WebDriverWait(driver, 30).until(lambda d: d.find_element(By.ID, "copy-link").text != before)
        except TimeoutException:
            pass
        after = driver.find_element(By.ID, "copy-link").text
        report["copyButton"] = {"before": before, "after": after}
        if after != button.get_attribute("data-copied") or after == before:
            report["failures"].append("the copy button did not react: %r → %r" % (before, after))
        # The store and open-app buttons report their clicks too; both navigate away at once (to
        # the App Store, to the app's scheme), which sendBeacon survives.
        for button_id in ["get-app", "open-app"]:
            driver.get(PAGES[0][1])
            driver.find_element(By.ID, button_id).click()
            time.sleep(0.5)
        report["clicked"] = ["copy", "store", "open-app"]
        path = args.out + "/invite-mobile.png"
        driver.get(PAGES[0][1])
        png = base64.b64decode(driver.get_screenshot_as_base64())
        open(path, "wb").write(png)
        report["screenshots"]["mobile"] = {"path": path, "bytes": len(png), "blank": png_is_blank(png)}
    finally:
        driver.quit()

    driver = make_driver(args.port, mobile=False)
    try:
        driver.get(PAGES[2][1])
        png = base64.b64decode(driver.get_screenshot_as_base64())
        path = args.out + "/thread-desktop.png"
        open(path, "wb").write(png)
        report["screenshots"]["desktop"] = {"path": path, "bytes": len(png), "blank": png_is_blank(png)}
    finally:
        driver.quit()

    # With JavaScript off the page still offers every way on: the links are plain links.
    driver = make_driver(args.port, mobile=True, javascript=False)
    try:
        driver.get(PAGES[0][1])
        hrefs = {element.get_attribute("id"): element.get_attribute("href") for element in driver.find_elements(By.CSS_SELECTOR, "a.button")}
        report["withoutJavaScript"] = hrefs
        if split_token(hrefs.get("open-app"))[0] != PAGES[0][3] or not (hrefs.get("get-app") or "").startswith("https://apps.apple.com/"):
            report["failures"].append("without JavaScript the invite page lacks its buttons: %r" % hrefs)
    finally:
        driver.quit()

    for kind, shot in report["screenshots"].items():
        if shot["blank"]:
            report["failures"].append("the %s screenshot is blank" % kind)
    print(json.dumps(report, indent=2))
    return 1 if report["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
