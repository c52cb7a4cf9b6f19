{#- nbgrader's Manage Submissions, with the kit's words for what its "graded" leaves out (grader/formgrader). -#}
{%- extends "nbgrader/manage_submissions.tpl" -%}

{%- block script -%}
<script src="{{ base_url }}/formgrader/kit/static/manage_submissions.js"></script>
{%- endblock script -%}
