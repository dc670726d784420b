#!/usr/bin/env python3
"""Loads fallback pages in headless Chromium as given devices and reports the links each page hands
to the app: the open button's href, the store button's href, the copy button's link, and every view
token (lh_view) in the page. Run by the Swift test AttributionBrowserTests, which then reports app
opens with those tokens and reads the funnel.

Each `--page NAME=DEVICE=URL` is loaded once; DEVICE is iphone, android, instagram (Instagram's
in-app browser on an iPhone) or desktop. Prints one JSON object; exits non-zero when a page did not
load or a link page carried no token.
"""
import argparse
import json
import re
import sys

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

from accessibility_check import DEVICES, emulate
from browser_check import make_driver

DEVICES["instagram"] = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 "
    "Instagram 355.0.0.26.108 (iPhone15,2; iOS 18_1; en_US; en; scale=3.00; 1179x2556; 652577004)",
    DEVICES["iphone"][1])
TOKEN = re.compile(r"lh_view(?:=|%3D)([A-Za-z0-9_-]{16})")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--page", action="append", default=[], help="NAME=DEVICE=URL")
    args = parser.parse_args()
    driver = make_driver(args.port, mobile=False)
    report = {"pages": {}, "failures": []}
    try:
        for page in args.page:
            name, device, url = page.split("=", 2)
            emulate(driver, device, "light")
            driver.get(url)
            WebDriverWait(driver, 60).until(expected_conditions.presence_of_element_located((By.TAG_NAME, "main")))
            links = driver.execute_script("""
                const attribute = (id, name) => { const e = document.getElementById(id); return e ? e.getAttribute(name) : null; };
                return {open: attribute('open-app', 'href'), store: attribute('get-app', 'href'), copy: attribute('copy-link', 'data-copy'),
                        kind: document.body.className, agent: navigator.userAgent};""")
            links["tokens"] = sorted(set(TOKEN.findall(driver.page_source)))
            report["pages"][name] = links
            if links["kind"] != "page-link" or len(links["tokens"]) != 1:
                report["failures"].append("%s: %s with tokens %r" % (name, links["kind"], links["tokens"]))
    finally:
        driver.quit()
    print(json.dumps(report))
    sys.exit(1 if report["failures"] else 0)


if __name__ == "__main__":
    main()
