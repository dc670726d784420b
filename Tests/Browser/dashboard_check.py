#!/usr/bin/env python3
"""Signs in to the linkhost admin dashboard in headless Chromium and checks that logged values,
which visitors control, render as inert text.

Run by the Swift test DashboardBrowserTests against a live admin listener whose log holds hostile
UTM values, referrers, user agents and paths (each payload sets window.__pwned if it ever runs).
Checks: the login form works, no alert opens, no script exists on the page at all, no element or
handler came from the log, the payload texts are shown literally, the browser logged no error and
no Content Security Policy violation, the stylesheet applied and the chart is drawn. Saves a
screenshot. Prints one JSON object; exits non-zero if any check failed.
"""
import argparse
import base64
import json
import shutil
import sys

from selenium import webdriver
from selenium.common.exceptions import UnexpectedAlertPresentException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from browser_check import png_is_blank  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--token-file", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--expect", action="append", default=[], help="a payload text the page must show literally")
    args = parser.parse_args()
    token = open(args.token_file).read().strip()
    base = "http://127.0.0.1:%d" % args.port
    report = {"failures": []}

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1400,1800", "--lang=en-US"]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    try:
        driver.get(base + "/")
        report["beforeLogin"] = driver.execute_script("return document.body.className")
        # The sign-in page answered 401 (the dashboard needs a session): the browser logs that; what
        # counts is what it logs from here on.
        driver.get_log("browser")
        driver.find_element(By.NAME, "token").send_keys(token)
        driver.find_element(By.CSS_SELECTOR, "form[action='/login'] button").click()
        try:
            # The click starts a POST and a 303 to the dashboard; on a loaded machine the old page
            # can still be there when the click returns, so wait for the new one.
            WebDriverWait(driver, 60).until(expected_conditions.presence_of_element_located((By.CSS_SELECTOR, "section.recent")))
        except UnexpectedAlertPresentException:
            report["failures"].append("an alert opened: a logged value ran as script")
            raise
        state = driver.execute_script("""
            const handlers = Array.from(document.querySelectorAll('*')).filter(
              e => Array.from(e.attributes).some(a => a.name.startsWith('on') || a.name === 'autofocus' || a.name === 'srcdoc'));
            return {
              pwned: window.__pwned === 1,
              bodyClass: document.body.className,
              scripts: document.scripts.length,
              images: document.images.length,
              iframes: document.querySelectorAll('iframe, object, embed').length,
              svgs: document.querySelectorAll('svg').length,
              chartLines: document.querySelectorAll('svg.chart polyline').length,
              handlers: handlers.map(e => e.outerHTML.slice(0, 120)),
              links: Array.from(document.querySelectorAll('a')).map(a => a.getAttribute('href')),
              recentRows: document.querySelectorAll('section.recent tbody tr').length,
              text: document.body.innerText,
              headerBackground: getComputedStyle(document.querySelector('.filters button')).backgroundColor,
            };""")
        report["state"] = {k: v for k, v in state.items() if k != "text"}
        if state["pwned"]:
            report["failures"].append("a logged value ran as script")
        if state["bodyClass"] != "dashboard":
            report["failures"].append("the login did not lead to the dashboard (%r)" % state["bodyClass"])
        if state["scripts"] or state["images"] or state["iframes"] or state["handlers"]:
            report["failures"].append("elements or handlers that are not ours: %r" % report["state"])
        if state["svgs"] != 1 or state["chartLines"] != 3:
            report["failures"].append("the chart is not the one inline SVG with three series: %r" % report["state"])
        if any(link and link.lower().startswith("javascript") for link in state["links"]):
            report["failures"].append("a javascript: link: %r" % state["links"])
        if state["recentRows"] < 5:
            report["failures"].append("the last hits table has %d rows" % state["recentRows"])
        if state["headerBackground"] in (None, "rgba(0, 0, 0, 0)", "transparent"):
            report["failures"].append("the stylesheet did not apply")
        shown = [text for text in args.expect if text in state["text"]]
        report["payloadsShown"] = len(shown)
        for text in args.expect:
            if text not in state["text"]:
                report["failures"].append("the logged text %r is not shown literally" % text)
        log = driver.get_log("browser")
        report["console"] = [entry.get("message", "") for entry in log]
        for entry in log:
            message = entry.get("message", "")
            if entry.get("level") == "SEVERE" or "Content Security Policy" in message:
                report["failures"].append("browser console: %s" % message)
        png = base64.b64decode(driver.get_screenshot_as_base64())
        path = args.out + "/dashboard.png"
        open(path, "wb").write(png)
        report["screenshot"] = {"path": path, "bytes": len(png), "blank": png_is_blank(png)}
        if report["screenshot"]["blank"]:
            report["failures"].append("the dashboard screenshot is blank")
    finally:
        driver.quit()
    print(json.dumps(report, indent=2))
    return 1 if report["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
