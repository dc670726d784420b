// linkhost fallback pages: the copy button. Loaded from /static (the page allows no inline script).
// The app reads a copied universal link from the pasteboard on first launch, which is how an
// invitation survives the detour through the App Store.
"use strict";
document.addEventListener("DOMContentLoaded", function () {
  document.querySelectorAll("[data-copy]").forEach(function (button) {
    button.addEventListener("click", function () {
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
