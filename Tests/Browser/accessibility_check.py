#!/usr/bin/env python3
"""Audits linkhost's pages and dashboard for WCAG 2.1 A and AA with axe-core in headless Chromium,
once in the light and once in the dark colour scheme.

Run by the Swift test AccessibilityAuditTests against a live server and admin listener. One browser
loads every page: the phone and computer variants come from overriding the user agent and the
viewport through the DevTools protocol, and the dark scheme from emulating `prefers-color-scheme:
dark` (Emulation.setEmulatedMedia), so the pages are audited as a phone or a computer in dark mode
would render them. axe-core is the copy a PyPI package ships (see requirements-files.txt).

Each `--page NAME=UA=URL` is a public page (UA: iphone, android or desktop); the admin sign-in page
(empty and after a wrong token) and the dashboard (at a computer's and a phone's width) are added
when `--admin-port` is given. Prints one JSON object; exits non-zero if any page has a violation.
"""
import argparse
import importlib.util
import json
import os
import sys
import time

from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

from browser_check import IPHONE_UA, make_driver

ANDROID_UA = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
              "Chrome/131.0.0.0 Mobile Safari/537.36")
DESKTOP_UA = ("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
              "Chrome/131.0.0.0 Safari/537.36")
DEVICES = {
    "iphone": (IPHONE_UA, {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True}),
    "android": (ANDROID_UA, {"width": 412, "height": 915, "deviceScaleFactor": 2, "mobile": True}),
    "desktop": (DESKTOP_UA, {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False}),
}
# The success criteria of WCAG 2.0 and 2.1, levels A and AA.
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def axe_source():
    """axe.min.js from the package that ships it (its Python code is not used)."""
    spec = importlib.util.find_spec("axe_playwright_python")
    if spec is None or not spec.submodule_search_locations:
        sys.exit("axe-playwright-python is not installed in this environment (scripts/test installs it)")
    with open(os.path.join(spec.submodule_search_locations[0], "axe.min.js"), encoding="utf-8") as file:
        return file.read()


def emulate(driver, device, scheme):
    agent, metrics = DEVICES[device]
    driver.execute_cdp_cmd("Emulation.setUserAgentOverride", {"userAgent": agent})
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})


def audit(driver, source, name, scheme):
    """Runs axe on the loaded page; returns a summary and one line per violated rule."""
    if not driver.execute_script("return typeof window.axe === 'object'"):
        driver.execute_script(source)
    result = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        axe.run(document, {runOnly: {type: 'tag', values: arguments[0]}, resultTypes: ['violations']})
          .then(r => done({violations: r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                  nodes: v.nodes.slice(0, 5).map(n => ({target: n.target.join(' '), summary: n.failureSummary}))})),
                passes: r.passes.length, version: r.testEngine.version,
                dark: matchMedia('(prefers-color-scheme: dark)').matches}))
          .catch(e => done({error: String(e)}));""", TAGS)
    if "error" in result:
        return result, ["%s (%s): axe failed: %s" % (name, scheme, result["error"])]
    lines = []
    if result["dark"] != (scheme == "dark"):
        lines.append("%s (%s): the page did not see the %s colour scheme" % (name, scheme, scheme))
    for violation in result["violations"]:
        for node in violation["nodes"]:
            lines.append("%s (%s): %s [%s] %s at %s: %s" % (
                name, scheme, violation["id"], violation["impact"], violation["help"], node["target"],
                (node["summary"] or "").replace("\n", " ")))
    return result, lines


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True, help="the public listener")
    parser.add_argument("--page", action="append", default=[], help="NAME=DEVICE=URL")
    parser.add_argument("--admin-port", type=int)
    parser.add_argument("--token-file")
    args = parser.parse_args()
    source = axe_source()
    driver = make_driver(args.port, mobile=False)
    driver.set_script_timeout(120)
    report = {"audits": [], "failures": []}
    started = time.monotonic()
    try:
        targets = [tuple(page.split("=", 2)) for page in args.page]
        for scheme in ["light", "dark"]:
            def run(name, device, load):
                emulate(driver, device, scheme)
                load()
                # Wait for the page, never assume it is there: a form's submission navigates after
                # the click returns, and a loaded machine can take its time.
                WebDriverWait(driver, 60).until(expected_conditions.presence_of_element_located((By.TAG_NAME, "main")))
                result, lines = audit(driver, source, name, scheme)
                report["axe"] = result.get("version")
                report["audits"].append({"name": name, "scheme": scheme, "passes": result.get("passes"),
                                         "violations": len(result.get("violations", []))})
                report["failures"].extend(lines)

            for name, device, url in targets:
                run(name, device, lambda url=url: driver.get(url))
            if args.admin_port:
                admin = "http://127.0.0.1:%d" % args.admin_port
                token = open(args.token_file).read().strip()
                driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
                run("sign-in", "desktop", lambda: driver.get(admin + "/"))

                def sign_in(with_token):
                    driver.get(admin + "/login")
                    driver.find_element(By.NAME, "token").send_keys(with_token)
                    # Mark the document that is clicked: the page the form's answer loads is a new
                    # document without the mark.
                    driver.execute_script("window.linkhostSignInClicked = true")
                    driver.find_element(By.CSS_SELECTOR, "form[action='/login'] button").click()

                    def answered(d):
                        # The click only starts the form's navigation: wait until the clicked page is
                        # gone and its answer has loaded, so the next step sees the answer (or the
                        # cookie it set). Selenium's staleness_of asks the old element, and mid-way
                        # through a navigation Chromium answers that with a plain WebDriverException
                        # ("Node with given id does not belong to the document") rather than a stale
                        # reference, so the question is asked of the document, and an error while it
                        # is being replaced means "not yet".
                        try:
                            return d.execute_script(
                                "return window.linkhostSignInClicked === undefined"
                                " && document.readyState === 'complete'")
                        except WebDriverException:
                            return False

                    WebDriverWait(driver, 60).until(answered)

                run("sign-in-refused", "desktop", lambda: sign_in("not-the-token-at-all"))
                sign_in(token)
                run("dashboard", "desktop", lambda: driver.get(admin + "/"))
                run("dashboard-phone", "iphone", lambda: driver.get(admin + "/"))
    finally:
        driver.quit()
    report["seconds"] = round(time.monotonic() - started, 1)
    print(json.dumps(report))
    sys.exit(1 if report["failures"] else 0)


if __name__ == "__main__":
    main()
