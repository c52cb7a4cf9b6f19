// The kit's words in formgrader's Manage Submissions (grader/formgrader): in a student's Status, in place of
// nbgrader's "graded", the notebooks not handed in and those whose nbgrader cells the student changed; in the
// Timestamp of a student who handed in nothing, in place of nbgrader's "None", "nothing handed in". nbgrader's
// script draws the rows (and redraws one after its Autograde button); each time, the words are asked for again.
// Everything is set as text: nothing the server sends is read as HTML.
(function () {
    var rows = document.getElementById("main-table");
    var url = base_url + "/formgrader/kit/api/labels/" + encodeURIComponent(assignment_id);
    var styles = {changed: "label-danger", missing: "label-default"};
    var observer = new MutationObserver(refresh);
    var asking = false;
    var again = false;

    function refresh() {
        if (asking) {
            again = true;
            return;
        }
        asking = true;
        $.getJSON(url).done(relabel).always(function () {
            asking = false;
            if (again) {
                again = false;
                refresh();
            }
        });
    }

    function relabel(labels) {
        observer.disconnect();
        $(rows).children("tr").each(function () {
            var status = $(this).children("td.status");
            var student = $(this).children("td.student-id").text();
            var found = Object.prototype.hasOwnProperty.call(labels, student) ? labels[student] : [];
            status.children(".attention-kit").remove();
            if (!found.length) {
                return;
            }
            if (status.children(".label-success").remove().length) { // nbgrader's "graded"
                status.attr("data-order", 1); // sorted with "needs manual grading": a person looks at it
            }
            var stamp = $(this).children("td.timestamp");
            if (stamp.text() === "None" && found.some(function (label) { return label[0] === "missing"; })) {
                stamp.text("nothing handed in"); // nbgrader's word for a submission with no time: there is none
            }
            var words = $("<span/>").addClass("attention-kit");
            found.forEach(function (label) {
                words.append(" ", $("<span/>").addClass("label " + styles[label[0]]).text(label[1]));
            });
            status.append(words);
        });
        var table = rows.parentNode;
        if ($.fn.dataTable.isDataTable(table)) {
            $(table).DataTable().rows().invalidate("dom");
        }
        observer.observe(rows, {childList: true, subtree: true});
    }

    observer.observe(rows, {childList: true, subtree: true});
})();
