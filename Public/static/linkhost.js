// linkhost fallback pages: the copy button, and click reports for the funnel. Loaded from /static
// (the page allows no inline script). The app reads a copied universal link from the pasteboard on
// first launch, which is how an invitation survives the detour through the App Store.
// Without JavaScript the page works the same; only the click reports are missing.
"use strict";

// Tells the server which button was used: POST /v1/events on this origin (the page's policy allows
// connect-src 'self' only). sendBeacon outlives the navigation the click starts, and its text/plain
// body needs no CORS preflight.
function report(event) {
  // Only a working link's page reports: a broken link routes to no page, so there is nothing to count.
  if (!document.body.classList.contains("page-link") || !navigator.sendBeacon) { return; }
  var body = JSON.stringify({ event: event, path: location.pathname + location.search });
  try { navigator.sendBeacon("/v1/events", body); } catch (e) { /* a report must never break the page */ }
}

document.addEventListener("DOMContentLoaded", function () {
  var reported = { "open-app": "open-app", "get-app": "store" };
  Object.keys(reported).forEach(function (id) {
    var link = document.getElementById(id);
    if (link) { link.addEventListener("click", function () { report(reported[id]); }); }
  });
  document.querySelectorAll("[data-copy]").forEach(function (button) {
    button.addEventListener("click", function () {
      report("copy");
      var text = button.getAttribute("data-copy");
      var done = function () {
        var original = button.textContent;
        button.textContent = button.getAttribute("data-copied") || original;
        setTimeout(function () { button.textContent = original; }, 2000);
      };
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(text).then(done, function () { fallbackCopy(text); done(); });
      } else {
        fallbackCopy(text);
        done();
      }
    });
  });
});

function fallbackCopy(text) {
  var field = document.createElement("textarea");
  field.value = text;
  field.setAttribute("readonly", "");
  field.style.position = "absolute";
  field.style.left = "-9999px";
  document.body.appendChild(field);
  field.select();
  try { document.execCommand("copy"); } catch (e) { /* nothing more to try */ }
  document.body.removeChild(field);
}
