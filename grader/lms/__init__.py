"""Grades into the LMS: the course's roster from the LMS and each student's total posted back, over LTI 1.3's
services, Canvas's REST API or Moodle's web services."""
