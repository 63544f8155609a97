# The one image for web, worker and beat (see docker-compose.yml).
FROM python:3.13-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 JUNTA_VAR_DIR=/var/lib/junta
WORKDIR /app
COPY pyproject.toml README.md ./
COPY junta ./junta
COPY accounts ./accounts
RUN pip install --no-cache-dir .
COPY . .
RUN useradd --system --home /app junta && mkdir -p /var/lib/junta && chown junta /var/lib/junta
USER junta
EXPOSE 8000
CMD ["scripts/web-start"]
