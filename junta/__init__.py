"""Junta: the Django project package (settings, URLs, the Celery app, the engine and game apps).

Kept empty on purpose: `junta.engine` is a pure library and importing it must not pull in
Django or Celery. The Celery app is loaded by `junta.ops.apps.OpsConfig.ready()`.
"""
