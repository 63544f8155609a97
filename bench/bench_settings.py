"""Settings of bench/pages.py: the site's own, junta.settings, with one page more that only the
benchmark serves, the baseline (bench/baseline_urls.py). Never the site's settings."""

from junta.settings import *  # noqa: F403 - every setting of the site, unchanged

ROOT_URLCONF = "bench.baseline_urls"
