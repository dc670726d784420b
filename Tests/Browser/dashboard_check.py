#!/usr/bin/env python3
"""Signs in to the linkhost admin dashboard in headless Chromium, checks that logged values render
as inert text, and measures that the page fits a desktop and a phone viewport.

Run by the Swift test DashboardBrowserTests against a live admin listener whose log holds a busy
week with hostile UTM values, referrers, user agents and paths (each payload sets window.__pwned if
it ever runs).

Checks: the sign-in page asks without an alert and alerts on a wrong token; the login works; on the
default page (page views) and with every kind: no alert opens, no script exists on the page at all,
no element or handler came from the log, the payload texts are shown literally, the browser logged
no error and no Content Security Policy violation, the stylesheet applied. At 1280x900 and 400x850
(and at 400x850 in German in dark mode):
nothing is wider than the viewport, every table stays inside its card, rows of the last hits are
bounded in height and so is the page, one chart is shown, as wide as its card, with every day of a
week labelled in text of a readable size, and a cut value opens whole on a click without widening
the page. Saves a screenshot per width and the report. Prints one JSON object (the report); exits non-zero if any check failed.
"""
import argparse
import base64
import json
import shutil
import sys

from selenium import webdriver
from selenium.common.exceptions import UnexpectedAlertPresentException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from browser_check import png_is_blank, start_chromium  # noqa: E402

# (name, width, height, query, dark, tallest row of the last hits, tallest page, tallest panel of
# links that did not open the app) in CSS pixels. A row is one line on a desktop and a small block
# on a phone; the page holds 50 such rows below the charts, the funnel and that panel (three lists
# of at most five rows, each row with its reason: side by side on a desktop, one after the other on
# a phone). A narrow desktop window between them gets the phone's rows and the middle chart;
# German, with its longer words, is checked on the phone in dark mode.
VIEWPORTS = [
    ("1280", 1280, 900, "/", False, 40, 3400, 560),
    ("800", 800, 900, "/", False, 100, 7600, 1000),
    ("400", 400, 850, "/", False, 48, 8600, 1300),
    ("400-de-dark", 400, 850, "/?lang=de", True, 48, 8800, 1480),
]
# Rendered chart text smaller than this is not readable.
SMALLEST_CHART_TEXT = 10

STATE = """
const handlers = Array.from(document.querySelectorAll('*')).filter(
  e => Array.from(e.attributes).some(a => a.name.startsWith('on') || a.name === 'autofocus' || a.name === 'srcdoc'));
return {
  pwned: window.__pwned === 1,
  bodyClass: document.body.className,
  scripts: document.scripts.length,
  images: document.images.length,
  iframes: document.querySelectorAll('iframe, object, embed').length,
  charts: document.querySelectorAll('svg.chart').length,
  otherSvgs: document.querySelectorAll('svg:not(.chart)').length,
  handlers: handlers.map(e => e.outerHTML.slice(0, 120)),
  links: Array.from(document.querySelectorAll('a')).map(a => a.getAttribute('href')),
  recentRows: document.querySelectorAll('section.recent tbody tr').length,
  text: document.body.innerText,
  buttonBackground: getComputedStyle(document.querySelector('.filters button')).backgroundColor,
};"""

LAYOUT = """
const width = window.innerWidth;
const box = e => e.getBoundingClientRect();
const round = n => Math.round(n * 10) / 10;
const out = {innerWidth: width, scrollWidth: document.documentElement.scrollWidth,
             pageHeight: document.documentElement.scrollHeight, problems: []};
// Anything that sticks out of the viewport (elements clipped by an ancestor do not count).
for (const e of document.querySelectorAll('body *')) {
  const r = box(e);
  if (r.width === 0 || r.height === 0) continue;
  let clipped = false;
  for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
    const style = getComputedStyle(a);
    if (style.overflowX !== 'visible' || style.overflow === 'hidden') { clipped = true; break; }
  }
  if (!clipped && (r.right > width + 0.5 || r.left < -0.5)) out.problems.push('outside the viewport: ' + e.tagName + '.' + e.className + ' ' + round(r.left) + '..' + round(r.right));
}
out.tables = Array.from(document.querySelectorAll('main table')).map(t => {
  const card = t.closest('section');
  const tr = box(t), cr = box(card);
  const inner = {left: cr.left + parseFloat(getComputedStyle(card).paddingLeft), right: cr.right - parseFloat(getComputedStyle(card).paddingRight)};
  const cells = Array.from(t.querySelectorAll('td, th')).filter(c => box(c).width > 0);
  const outside = cells.filter(c => box(c).right > inner.right + 0.5 || box(c).left < inner.left - 0.5).length;
  return {card: card.className, tableWidth: round(tr.width), cardInnerWidth: round(inner.right - inner.left),
          inside: tr.left >= inner.left - 0.5 && tr.right <= inner.right + 0.5 && outside === 0, cellsOutside: outside};
});
const rows = Array.from(document.querySelectorAll('section.recent tbody tr'));
out.recentRows = rows.length;
out.tallestRow = round(Math.max(0, ...rows.map(r => box(r).height)));
out.recentHeight = round(box(document.querySelector('section.recent')).height);
const bypass = document.querySelector('section.bypass');
out.bypassHeight = bypass ? round(box(bypass).height) : 0;
const charts = Array.from(document.querySelectorAll('svg.chart')).filter(s => getComputedStyle(s).display !== 'none');
out.chartsShown = charts.map(s => s.getAttribute('data-size'));
if (charts.length === 1) {
  const chart = charts[0], card = chart.closest('section');
  const cardInner = box(card).width - parseFloat(getComputedStyle(card).paddingLeft) - parseFloat(getComputedStyle(card).paddingRight) - 2;
  const texts = Array.from(chart.querySelectorAll('text'));
  out.chart = {width: round(box(chart).width), height: round(box(chart).height), cardInnerWidth: round(cardInner),
               lines: chart.querySelectorAll('g.series').length, dayLabels: chart.querySelectorAll('text.day').length,
               days: chart.querySelectorAll('rect.hover').length,
               smallestText: round(Math.min(...texts.map(t => box(t).height))),
               labelsOverlap: false};
  const labels = Array.from(chart.querySelectorAll('text.day')).map(box).sort((a, b) => a.left - b.left);
  for (let i = 1; i < labels.length; i++) if (labels[i].left < labels[i - 1].right) out.chart.labelsOverlap = true;
}
return out;"""

# Opens the first value of the last hits that is cut, and reports what it showed before and after.
EXPAND = """
const summaries = Array.from(document.querySelectorAll('section.recent td > details > summary'));
const cut = summaries.find(s => s.scrollWidth > s.clientWidth + 1);
if (!cut) return null;
const details = cut.parentElement, row = cut.closest('tr');
const before = {rowHeight: row.getBoundingClientRect().height, title: details.getAttribute('title'), text: cut.textContent};
cut.click();
return {before: before, open: details.open, rowHeight: row.getBoundingClientRect().height,
        stillCut: cut.scrollWidth > cut.clientWidth + 1, scrollWidth: document.documentElement.scrollWidth,
        innerWidth: window.innerWidth, tableInside: cut.closest('table').getBoundingClientRect().right <= cut.closest('section').getBoundingClientRect().right};"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--token-file", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--days", type=int, required=True, help="days the default range's chart shows")
    parser.add_argument("--expect", action="append", default=[], help="a payload text the page with every kind must show literally")
    args = parser.parse_args()
    token = open(args.token_file).read().strip()
    base = "http://127.0.0.1:%d" % args.port
    report = {"failures": [], "layout": {}, "screenshots": {}}
    failures = report["failures"]

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1280,900", "--lang=en-US",
                     "--hide-scrollbars"]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = start_chromium(options)

    def viewport(width, height):
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})

    def check_console(where):
        for entry in driver.get_log("browser"):
            message = entry.get("message", "")
            if entry.get("level") == "SEVERE" or "Content Security Policy" in message:
                failures.append("browser console (%s): %s" % (where, message))

    def check_inert(where, expect):
        state = driver.execute_script(STATE)
        report.setdefault("state", {})[where] = {k: v for k, v in state.items() if k != "text"}
        if state["pwned"]:
            failures.append("%s: a logged value ran as script" % where)
        if state["bodyClass"] != "dashboard":
            failures.append("%s: not the dashboard (%r)" % (where, state["bodyClass"]))
        if state["scripts"] or state["images"] or state["iframes"] or state["handlers"] or state["otherSvgs"]:
            failures.append("%s: elements or handlers that are not ours: %r" % (where, report["state"][where]))
        if any(link and link.lower().startswith("javascript") for link in state["links"]):
            failures.append("%s: a javascript: link: %r" % (where, state["links"]))
        if state["recentRows"] != 50:
            failures.append("%s: the last hits table has %d rows, not 50" % (where, state["recentRows"]))
        if state["buttonBackground"] in (None, "rgba(0, 0, 0, 0)", "transparent"):
            failures.append("%s: the stylesheet did not apply" % where)
        shown = [text for text in expect if text in state["text"]]
        for text in expect:
            if text not in state["text"]:
                failures.append("%s: the logged text %r is not shown literally" % (where, text))
        return len(shown)

    try:
        viewport(1280, 900)
        driver.get(base + "/")
        report["beforeLogin"] = driver.execute_script(
            "return {body: document.body.className, alerts: document.querySelectorAll('[role=alert]').length,"
            " prompt: (document.querySelector('.prompt') || {}).textContent || null}")
        if report["beforeLogin"]["alerts"] or not report["beforeLogin"]["prompt"]:
            failures.append("the sign-in page should ask plainly, without an alert: %r" % report["beforeLogin"])
        # The sign-in page answered 401 (the dashboard needs a session): the browser logs that; what
        # counts is what it logs from here on.
        driver.get_log("browser")
        driver.find_element(By.NAME, "token").send_keys("not-the-token-at-all")
        driver.find_element(By.CSS_SELECTOR, "form[action='/login'] button").click()
        WebDriverWait(driver, 60).until(expected_conditions.presence_of_element_located((By.CSS_SELECTOR, "[role=alert]")))
        report["wrongToken"] = driver.execute_script("return document.querySelector('[role=alert]').textContent")
        driver.get_log("browser")
        driver.find_element(By.NAME, "token").send_keys(token)
        driver.find_element(By.CSS_SELECTOR, "form[action='/login'] button").click()
        try:
            # The click starts a POST and a 303 to the dashboard; on a loaded machine the old page
            # can still be there when the click returns, so wait for the new one.
            WebDriverWait(driver, 60).until(expected_conditions.presence_of_element_located((By.CSS_SELECTOR, "section.recent")))
        except UnexpectedAlertPresentException:
            failures.append("an alert opened: a logged value ran as script")
            raise
        check_inert("default", [])
        check_console("default")

        for name, width, height, query, dark, tallest_row, tallest_page, tallest_panel in VIEWPORTS:
            viewport(width, height)
            driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark" if dark else "light"}]})
            driver.get(base + query)
            layout = driver.execute_script(LAYOUT)
            report["layout"][name] = layout
            if layout["scrollWidth"] > layout["innerWidth"]:
                failures.append("%s: the page is %d px wide in a %d px viewport" % (name, layout["scrollWidth"], layout["innerWidth"]))
            failures.extend("%s: %s" % (name, problem) for problem in layout["problems"][:10])
            for table in layout["tables"]:
                if not table["inside"]:
                    failures.append("%s: a table (%d px) does not fit its card %r (%d px)" % (name, table["tableWidth"], table["card"], table["cardInnerWidth"]))
            if layout["recentRows"] != 50:
                failures.append("%s: %d rows of last hits, not 50" % (name, layout["recentRows"]))
            if layout["tallestRow"] > tallest_row:
                failures.append("%s: a row of the last hits is %d px tall (at most %d)" % (name, layout["tallestRow"], tallest_row))
            if layout["pageHeight"] > tallest_page:
                failures.append("%s: the page is %d px tall (at most %d)" % (name, layout["pageHeight"], tallest_page))
            if not 0 < layout["bypassHeight"] <= tallest_panel:
                failures.append("%s: the panel of links that did not open the app is %d px tall (at most %d)" % (name, layout["bypassHeight"], tallest_panel))
            chart = layout.get("chart")
            if len(layout["chartsShown"]) != 1 or not chart:
                failures.append("%s: not exactly one chart shown: %r" % (name, layout["chartsShown"]))
            else:
                if chart["lines"] != 3:
                    failures.append("%s: the chart has %d series, not 3" % (name, chart["lines"]))
                if chart["width"] < 0.95 * chart["cardInnerWidth"]:
                    failures.append("%s: the chart is %d px wide in a %d px card" % (name, chart["width"], chart["cardInnerWidth"]))
                if chart["smallestText"] < SMALLEST_CHART_TEXT:
                    failures.append("%s: the chart's text is %.1f px tall" % (name, chart["smallestText"]))
                if chart["days"] != args.days or chart["dayLabels"] != args.days or chart["labelsOverlap"]:
                    failures.append("%s: %d of %d days labelled (overlapping: %r)" % (name, chart["dayLabels"], chart["days"], chart["labelsOverlap"]))
            png = base64.b64decode(driver.get_screenshot_as_base64())
            path = "%s/dashboard-%s.png" % (args.out, name)
            open(path, "wb").write(png)
            report["screenshots"][name] = {"path": path, "bytes": len(png), "blank": png_is_blank(png)}
            if report["screenshots"][name]["blank"]:
                failures.append("%s: the screenshot is blank" % name)
            # The whole page, for a person to look at.
            full = driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True})
            open("%s/dashboard-%s-full.png" % (args.out, name), "wb").write(base64.b64decode(full["data"]))
            # The panel of links that did not open the app alone.
            rect = driver.execute_script(
                "const r = document.querySelector('section.bypass').getBoundingClientRect();"
                "return {x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height, scale: 1};")
            panel = driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True, "clip": rect})
            open("%s/dashboard-%s-bypass.png" % (args.out, name), "wb").write(base64.b64decode(panel["data"]))
            expanded = driver.execute_script(EXPAND)
            report["layout"][name]["expanded"] = expanded
            if not expanded:
                failures.append("%s: no value of the last hits is cut, so none could be opened" % name)
            else:
                if expanded["before"]["title"] != expanded["before"]["text"]:
                    failures.append("%s: a cut value's title is not the whole value" % name)
                if not expanded["open"] or expanded["stillCut"] or expanded["rowHeight"] <= expanded["before"]["rowHeight"]:
                    failures.append("%s: a click did not show a cut value whole: %r" % (name, expanded))
                if expanded["scrollWidth"] > expanded["innerWidth"] or not expanded["tableInside"]:
                    failures.append("%s: an opened value widened the page: %r" % (name, expanded))
            check_console(name)

        viewport(1280, 900)
        driver.get(base + "/?kind=all")
        report["payloadsShown"] = check_inert("every kind", args.expect)
        check_console("every kind")
    finally:
        driver.quit()
    text = json.dumps(report, indent=2)
    open(args.out + "/dashboard-report.json", "w").write(text)
    print(text)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
