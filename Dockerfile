# The one image for web, worker and beat (see docker-compose.yml).
FROM python:3.13-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 JUNTA_VAR_DIR=/var/lib/junta
WORKDIR /app
# gettext's msgfmt compiles the translations (the site's locale/*/LC_MESSAGES/*.po and the
# engine's junta/engine/locale/*/LC_MESSAGES/*.po) into the .mo files that Django reads; they are
# not kept in git.
RUN apt-get update && apt-get install -y --no-install-recommends gettext \
    && rm -rf /var/lib/apt/lists/*
# The exact runtime versions of requirements/base.lock, each checked against its hash (a layer
# cached until the lock changes), then the project itself without dependencies.
COPY requirements/base.lock ./requirements/
RUN pip install --no-cache-dir --disable-pip-version-check --require-hashes -r requirements/base.lock
COPY pyproject.toml README.md ./
COPY junta ./junta
COPY accounts ./accounts
RUN pip install --no-cache-dir --disable-pip-version-check --no-deps .
COPY . .
RUN find locale junta/engine/locale -name '*.po' -exec sh -c 'msgfmt --check -o "${1%.po}.mo" "$1"' _ {} \;
RUN useradd --system --home /app junta && mkdir -p /var/lib/junta && chown junta /var/lib/junta
USER junta
EXPOSE 8000
CMD ["scripts/web-start"]
