// The inspector's only script: it follows a running import, its progress and its end.
// Pages work without it; it just saves the reloads.
(function () {
  "use strict";
  var POLL_MS = 1000;

  function show(section, job) {
    section.querySelector("#import-status").textContent = job.status;
    var ended = job.status === "done" || job.status === "failed";
    var bar = section.querySelector("#import-progress");
    if (job.percent === null || job.percent === undefined) {
      bar.removeAttribute("value"); // indeterminate: the step's size is not known
    } else {
      bar.max = 100;
      bar.value = job.percent;
      bar.textContent = job.percent + "%";
    }
    bar.hidden = job.status === "failed";
    section.querySelector("#import-step").textContent = job.progress_line;
    var error = section.querySelector("#import-error");
    error.textContent = job.error || "";
    error.hidden = !job.error;
    if (job.report) {
      showReport(section.querySelector("#import-report"), job.report);
    }
    return ended;
  }

  function showReport(list, report) {
    list.replaceChildren();
    [["Read", report.read], ["Kept", report.kept], ["Duplicates", report.duplicates],
     ["Facts", report.facts]].forEach(function (pair) {
      var term = document.createElement("dt");
      var value = document.createElement("dd");
      term.textContent = pair[0];
      value.textContent = String(pair[1]);
      list.append(term, value);
    });
  }

  function follow(section) {
    var url = section.getAttribute("data-status-url");
    function poll() {
      fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
        .then(function (answer) { return answer.ok ? answer.json() : null; })
        .then(function (job) {
          if (job && !show(section, job)) {
            window.setTimeout(poll, POLL_MS);
          }
        })
        .catch(function () { window.setTimeout(poll, POLL_MS * 5); });
    }
    poll();
  }

  document.addEventListener("DOMContentLoaded", function () {
    var section = document.querySelector("section.import[data-status-url]");
    if (section) {
      follow(section);
    }
  });
})();
