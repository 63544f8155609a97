"""Settings of bench/pages.py: the site's own, junta.settings, with one page more that only the
benchmark serves, the baseline (bench/baseline_urls.py), and the API's rate limits off. Never the
site's settings."""

from junta.settings import *  # noqa: F403 - every setting of the site, unchanged

ROOT_URLCONF = "bench.baseline_urls"

# The API's rate limits off: the bench's clients are one person calling as fast as they can, whom
# the limits would answer 429 (each page's own work is what is measured).
JUNTA_API_RATES: dict[str, str] = {}
