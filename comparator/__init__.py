"""The comparator: scenario files, comparisons, reports and the command line.

It reads scenarios (:mod:`comparator.loader`, :mod:`comparator.library`), settles them under the
rulesets of :mod:`rulesets` (:mod:`comparator.compare`), builds a view-model
(:mod:`comparator.report`) and renders it (:mod:`comparator.render`).  The faces
(:mod:`comparator.cli`, the pytest plugin) call :mod:`comparator.api`; only the command line
touches the terminal, and writes files through :mod:`comparator.files`.
"""
