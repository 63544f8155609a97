"""Junta's one settings module.

Every setting that differs between a laptop, CI and production comes from an environment
variable documented in `.env.example`. With no variables set the app runs embedded, in
development mode (JUNTA_DEV): SQLite and Celery's filesystem broker under `var/`, e-mail to the
development mailbox (var/mail/, read at /dev/mail/), a development secret, plain http; DEBUG
stays off, so that every page, the error pages too, is the one players meet in production
(DJANGO_DEBUG=1 shows Django's technical pages).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP
from kombu.entity import Exchange, Queue

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    """Read a yes/no variable: 1/true/yes/on and 0/false/no/off, any case."""
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a yes/no value (use 1 or 0).")


def env_list(name: str, default: str = "") -> list[str]:
    """Read a comma-separated variable into a list, dropping blanks."""
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def database_from_url(url: str, var_dir: Path) -> dict[str, object]:
    """Turn `DATABASE_URL` into a Django DATABASES entry.

    `postgres://user:password@host:port/name?sslmode=require` selects PostgreSQL (psycopg 3);
    `sqlite:///relative/path.sqlite3` or `sqlite:////absolute/path.sqlite3` selects SQLite.
    An empty value gives the embedded default, `var/junta.sqlite3`.
    """
    if not url:
        return sqlite_database(var_dir / "junta.sqlite3")
    parts = urlsplit(url)
    if parts.scheme == "sqlite":
        path = unquote(parts.path)
        # sqlite:///rel/path -> rel/path; sqlite:////abs/path -> /abs/path
        path = path.removeprefix("/")
        if not path:
            raise ImproperlyConfigured("DATABASE_URL=sqlite:/// needs a file path after it.")
        return sqlite_database(Path(path) if Path(path).is_absolute() else BASE_DIR / path)
    if parts.scheme in {"postgres", "postgresql", "pgsql"}:
        options = {key: values[-1] for key, values in parse_qs(parts.query).items()}
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": unquote(parts.path.lstrip("/")) or "junta",
            "USER": unquote(parts.username or ""),
            "PASSWORD": unquote(parts.password or ""),
            "HOST": parts.hostname or "",
            "PORT": str(parts.port or ""),
            "CONN_MAX_AGE": int(os.environ.get("DATABASE_CONN_MAX_AGE", "60")),
            "CONN_HEALTH_CHECKS": True,
            "OPTIONS": options,
            "TEST": {"NAME": os.environ.get("DATABASE_TEST_NAME") or None},
        }
    raise ImproperlyConfigured(
        f"DATABASE_URL scheme {parts.scheme!r} is not supported: use postgres:// or sqlite:///."
    )


def sqlite_database(path: Path) -> dict[str, object]:
    """SQLite tuned for a small web app with a worker beside it: WAL, IMMEDIATE transactions."""
    path.parent.mkdir(parents=True, exist_ok=True)
    return {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": path,
        "OPTIONS": {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": (
                "PRAGMA journal_mode=WAL;"
                "PRAGMA synchronous=NORMAL;"
                "PRAGMA busy_timeout=20000;"
                "PRAGMA foreign_keys=ON;"
            ),
        },
        # A file, not memory, so that a real worker process in the tests sees the same rows.
        "TEST": {"NAME": str(path.with_name(path.stem + "-test.sqlite3"))},
    }


# --- Core -------------------------------------------------------------------------------------

VAR_DIR = Path(os.environ.get("JUNTA_VAR_DIR") or BASE_DIR / "var").resolve()
VAR_DIR.mkdir(parents=True, exist_ok=True)

# Django's technical pages (a traceback, every URL of the site on a 404) only when asked for.
DEBUG = env_bool("DJANGO_DEBUG", False)
# Development mode: a development secret, the local host names, plain http (no secure cookies,
# HSTS or HTTPS redirect), static files served from where they lie. `manage.py serve` (`make
# run`) sets JUNTA_DEV=1; unset, it is on unless DJANGO_DEBUG=0 says "production", and
# DJANGO_DEBUG=1 implies it. Production (DJANGO_DEBUG=0) is hardened below.
JUNTA_DEV = DEBUG or env_bool("JUNTA_DEV", os.environ.get("DJANGO_DEBUG", "").strip() == "")

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not JUNTA_DEV:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off "
            "(generate one with: python -c 'import secrets; print(secrets.token_urlsafe(50))'; "
            "on a development machine, JUNTA_DEV=1 uses a development key)."
        )
    SECRET_KEY = "django-insecure-local-development-key-do-not-use-in-production-0123456789"

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]" if JUNTA_DEV else "")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")
SITE_URL = os.environ.get("JUNTA_SITE_URL", "http://127.0.0.1:8000").rstrip("/")
# The players' rules reference and the rulings (rules.md, rulings.md), read at run time and
# served at /rules/: the repository's docs/ folder (the Docker image copies it to /app/docs).
JUNTA_DOCS_DIR = Path(os.environ.get("JUNTA_DOCS_DIR") or BASE_DIR / "docs").resolve()

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "allauth",
    "allauth.account",
    "accounts",
    "junta.ops",
    "junta.games",
    "junta.talk",
    "junta.polls",
    "junta.notify",
    "junta.lives",
    "junta.gm",
    "junta.site",  # the pages that combine the apps above, on top of them all
    "ninja",  # the API docs' own scripts and styles, served from here (the CSP allows no CDN)
    "junta.api",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # before anything reads a cookie, the session or a form: a NUL byte is answered 400 here
    "junta.ops.middleware.ControlCharacterMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # the language of the browser (its cookie, set by the footer's switcher, then
    # Accept-Language); a signed-in person's saved one wins (accounts' middleware below)
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "accounts.middleware.UserTimezoneMiddleware",
    "accounts.middleware.UserLanguageMiddleware",
]

ROOT_URLCONF = "junta.urls"
WSGI_APPLICATION = "junta.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.csp",
                "django.template.context_processors.i18n",
                "junta.ops.context_processors.sweep_status",
            ],
        },
    },
]

# --- Database ---------------------------------------------------------------------------------

DATABASES = {"default": database_from_url(os.environ.get("DATABASE_URL", ""), VAR_DIR)}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Celery -----------------------------------------------------------------------------------

BROKER_DIR = VAR_DIR / "broker"
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL") or "filesystem://"
if CELERY_BROKER_URL.startswith("filesystem://"):
    for sub in ("queue", "processed", "control"):
        (BROKER_DIR / sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(BROKER_DIR / "queue"),
        "data_folder_out": str(BROKER_DIR / "queue"),
        "processed_folder": str(BROKER_DIR / "processed"),
        "control_folder": str(BROKER_DIR / "control"),
        "store_processed": False,
        # the folder is read ten times a second, not once: a message a second (the default)
        # left a mail queued behind the demo's start-up tasks for more than a minute
        "polling_interval": 0.1,
    }
else:
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_IGNORE_RESULT = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A worker process keeps its database connection from task to task (closed by Django's rule,
# CONN_MAX_AGE, around every task: junta/celery.py); Celery closes it only every 1000 tasks
# (without this setting, after every task).
CELERY_DB_REUSE_MAX = 1000
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("JUNTA_CELERY_QUEUE", "junta")
# The minute sweep and the adjudications have a queue of their own, so that they never wait
# behind a backlog of mail tasks. A worker started without -Q reads both queues (task_queues).
JUNTA_ADJUDICATION_QUEUE = os.environ.get(
    "JUNTA_CELERY_ADJUDICATION_QUEUE", f"{CELERY_TASK_DEFAULT_QUEUE}-adjudication")
if JUNTA_ADJUDICATION_QUEUE == CELERY_TASK_DEFAULT_QUEUE:
    raise ImproperlyConfigured(
        "JUNTA_CELERY_ADJUDICATION_QUEUE must differ from JUNTA_CELERY_QUEUE: adjudication would "
        "wait behind the mail again.")
CELERY_TASK_QUEUES = [
    # kombu's Queue and Exchange take unannotated arguments
    Queue(name, Exchange(name), routing_key=name)  # type: ignore[no-untyped-call]
    for name in (CELERY_TASK_DEFAULT_QUEUE, JUNTA_ADJUDICATION_QUEUE)
]
CELERY_TASK_ROUTES = {
    "junta.ops.tasks.sweep": {"queue": JUNTA_ADJUDICATION_QUEUE},
    "junta.games.tasks.adjudicate_phase": {"queue": JUNTA_ADJUDICATION_QUEUE},
}
# The sweep runs at the top of every minute; JUNTA_SWEEP_INTERVAL_SECONDS replaces that with a
# plain interval (the tests use 1 second to watch embedded beat work).
_sweep_interval = os.environ.get("JUNTA_SWEEP_INTERVAL_SECONDS")
CELERY_BEAT_SCHEDULE = {
    "sweep-every-minute": {
        "task": "junta.ops.tasks.sweep",
        "schedule": float(_sweep_interval) if _sweep_interval else crontab(),
    },
}
# How long after the last sweep the site counts as stalled (the staff health page says so).
JUNTA_SWEEP_STALE_AFTER_SECONDS = int(os.environ.get("JUNTA_SWEEP_STALE_AFTER_SECONDS", "180"))
# One notification sweep at a time: the minute sweep queues one only when none is queued or
# running (a lease row), and gives up on one that has neither finished nor started after this
# long (a lost message, a killed worker): then it may queue another.
JUNTA_NOTIFY_SWEEP_LEASE_SECONDS = int(os.environ.get("JUNTA_NOTIFY_SWEEP_LEASE_SECONDS", "600"))
# A mail claimed but not marked sent after this long (its worker was killed mid-send) is tried
# again by a later sweep, under the same Message-ID so that receivers drop a duplicate.
JUNTA_MAIL_CLAIM_LEASE_SECONDS = int(os.environ.get("JUNTA_MAIL_CLAIM_LEASE_SECONDS", "300"))
# Testing only: seconds a worker waits inside the adjudication transaction (crash tests).
JUNTA_FAULT_ADJUDICATION_DELAY = float(os.environ.get("JUNTA_FAULT_ADJUDICATION_DELAY", "0"))

# --- Cache (allauth's rate limits live here) --------------------------------------------------

CACHE_URL = os.environ.get("CACHE_URL", "")
if not CACHE_URL and CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
    CACHE_URL = CELERY_BROKER_URL
# "drawings": what is drawn once and never changes (the maps of published coup phases): in
# Redis when there is one, else in each process's memory (never in the database: reading a
# drawing must cost no query).
CACHES: dict[str, dict[str, Any]]  # Any: Django's cache options, of many kinds
if CACHE_URL:
    CACHES = {
        name: {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": CACHE_URL,
            "KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX", "junta"),
        }
        for name in ("default", "drawings")
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "junta_cache",
        },
        "drawings": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "junta-drawings",
            "OPTIONS": {"MAX_ENTRIES": 2000},
        },
    }

# --- The JSON API (junta/api) -------------------------------------------------------------------

# Requests per person (all his tokens and his session together; per address, REMOTE_ADDR, for the
# calls without a known token) that the API answers before it says 429: a sustained rate and a
# short burst, both "<count>/<period>" (s, min, hour, day; "30/10s": 30 in ten seconds). The
# counts live in the default cache (the database here, Redis in production).
JUNTA_API_RATES = {
    "sustained": os.environ.get("JUNTA_API_RATE", "120/min"),
    "burst": os.environ.get("JUNTA_API_BURST", "30/10s"),
}

# --- Accounts ---------------------------------------------------------------------------------

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "home"
ACCOUNT_LOGOUT_REDIRECT_URL = "home"
ACCOUNT_USER_MODEL_USERNAME_FIELD = None
ACCOUNT_LOGIN_METHODS = {"email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "password1*", "password2*"]
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_EMAIL_VERIFICATION = os.environ.get("JUNTA_EMAIL_VERIFICATION", "mandatory")
ACCOUNT_CONFIRM_EMAIL_ON_GET = False
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[Junta] "
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "http" if JUNTA_DEV else "https"
ACCOUNT_SIGNUP_FORM_CLASS = "accounts.forms.SignupForm"
# Sign-up must not tell, by its answer or its time, whether an address has an account: allauth
# answers a registered address as a new one and mails it "an account already exists"
# (ACCOUNT_PREVENT_ENUMERATION, on by default, kept on here); the form hashes its password as
# for a new account, and the adapter queues every allauth mail as a Celery task (accounts.tasks).
ACCOUNT_PREVENT_ENUMERATION = True
ACCOUNT_FORMS = {"signup": "accounts.signup.EvenSignupForm"}
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
# allauth's default login/sign-up/reset rate limits stay on (they are on unless set to False).

# --- E-mail -----------------------------------------------------------------------------------

DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Junta <junta@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
if os.environ.get("EMAIL_HOST"):
    _email_port = int(os.environ.get("EMAIL_PORT", "587"))
    MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {
                "host": os.environ["EMAIL_HOST"],
                "port": _email_port,
                "username": os.environ.get("EMAIL_HOST_USER", ""),
                "password": os.environ.get("EMAIL_HOST_PASSWORD", ""),
                "use_tls": env_bool("EMAIL_USE_TLS", _email_port == 587),
                "use_ssl": env_bool("EMAIL_USE_SSL", _email_port == 465),
                "timeout": 30,
            },
        }
    }
elif JUNTA_DEV:
    # `make run`: each mail a file under var/mail/, read on the staff page /dev/mail/, and one
    # line in the terminal (junta/ops/devmail.py)
    MAILERS = {"default": {"BACKEND": "junta.ops.devmail.MailboxBackend",
                           "OPTIONS": {"directory": str(VAR_DIR / "mail")}}}
else:
    MAILERS = {"default": {"BACKEND": "django.core.mail.backends.console.EmailBackend"}}
# The daily digest of speeches goes out at this hour, in each reader's own time zone.
JUNTA_DIGEST_HOUR = int(os.environ.get("JUNTA_DIGEST_HOUR", "8"))
if not 0 <= JUNTA_DIGEST_HOUR <= 23:
    raise ImproperlyConfigured(f"JUNTA_DIGEST_HOUR={JUNTA_DIGEST_HOUR} is not an hour (0-23).")

# --- Web Push (junta/notify/webpush.py) --------------------------------------------------------

# The VAPID key pair that signs every push: JUNTA_VAPID_PRIVATE_KEY (the raw 32-byte P-256 key in
# base64url, or its DER in base64), else the PEM file JUNTA_VAPID_KEY_FILE, which `make run`
# (`manage.py serve`) writes on its first start. The public key is derived from it. Neither:
# push is unavailable, and the profile page says so.
# In production the key file is only one named by JUNTA_VAPID_KEY_FILE (a file every machine
# mounts): var/ is one machine's, and a key made there would differ from machine to machine.
JUNTA_VAPID_PRIVATE_KEY = os.environ.get("JUNTA_VAPID_PRIVATE_KEY", "").strip()
_vapid_key_file = os.environ.get("JUNTA_VAPID_KEY_FILE", "").strip()
JUNTA_VAPID_KEY_FILE: Path | None = (
    Path(_vapid_key_file) if _vapid_key_file else VAR_DIR / "vapid.pem" if JUNTA_DEV else None)
# Whom the push services may contact about our pushes (the VAPID `sub` claim).
JUNTA_VAPID_SUBJECT = os.environ.get("JUNTA_VAPID_SUBJECT") or (
    "mailto:" + (DEFAULT_FROM_EMAIL.rpartition("<")[2].rstrip(">").strip() or "junta@localhost"))
# Testing only: a push endpoint may be http://127.0.0.1:PORT (a test receiver). Never set it on a
# site: it lets people make the server post to its own loopback interface.
JUNTA_PUSH_ALLOW_LOOPBACK = env_bool("JUNTA_PUSH_ALLOW_LOOPBACK", False)

# --- Internationalisation ---------------------------------------------------------------------

# Every word of the site is marked for translation; the catalogues are under locale/, and the
# engine's words (its events, refusals and data names) in one of their own under
# junta/engine/locale/ (the site's wins where both hold a msgid) (`make messages` extracts them,
# `make` compiles them). A person's language is the one saved in his profile, else his
# browser's (the footer's switcher, then Accept-Language), else English.
# Dates, times and numbers take the active language's format. Mails and pushes are written in
# their recipient's language (accounts.languages).
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("es", "Español")]
LOCALE_PATHS = [BASE_DIR / "locale", BASE_DIR / "junta" / "engine" / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# --- Static files -----------------------------------------------------------------------------

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("JUNTA_STATIC_ROOT") or VAR_DIR / "static")
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
MEDIA_URL = "media/"
MEDIA_ROOT = Path(os.environ.get("JUNTA_MEDIA_ROOT") or VAR_DIR / "media")
# Where uploads (avatars) are kept (junta/ops/storage.py), served at MEDIA_URL by the site itself
# whichever it is: "filesystem" (the embedded default: MEDIA_ROOT, one machine's, or a volume
# every machine mounts), "database" (a table of the database every machine reads; its dumps hold
# the avatars too) or "s3" (an S3-compatible bucket, through django-storages).
JUNTA_STORAGE = os.environ.get("JUNTA_STORAGE", "").strip().lower() or "filesystem"
_uploads: dict[str, Any]  # Any: a storage's options, of many kinds
if JUNTA_STORAGE == "filesystem":
    _uploads = {"BACKEND": "django.core.files.storage.FileSystemStorage"}
elif JUNTA_STORAGE == "database":
    _uploads = {"BACKEND": "junta.ops.storage.DatabaseStorage"}
elif JUNTA_STORAGE == "s3":
    if not os.environ.get("AWS_STORAGE_BUCKET_NAME", "").strip():
        raise ImproperlyConfigured("JUNTA_STORAGE=s3 needs AWS_STORAGE_BUCKET_NAME (the bucket).")
    _uploads = {
        "BACKEND": "junta.ops.storage.BucketStorage",
        "OPTIONS": {
            "bucket_name": os.environ["AWS_STORAGE_BUCKET_NAME"].strip(),
            # empty: Amazon's own; an address for another S3-compatible store (MinIO, ...)
            "endpoint_url": os.environ.get("AWS_S3_ENDPOINT_URL", "").strip() or None,
            "region_name": os.environ.get("AWS_S3_REGION_NAME", "").strip() or None,
            # empty: boto3 finds them itself (an instance role, ~/.aws)
            "access_key": os.environ.get("AWS_ACCESS_KEY_ID", "").strip() or None,
            "secret_key": os.environ.get("AWS_SECRET_ACCESS_KEY", "").strip() or None,
            "location": os.environ.get("AWS_LOCATION", "").strip().strip("/"),
            # a second upload of a name gets a name of its own, as on the filesystem
            "file_overwrite": False,
            # private objects: the site reads them and serves them itself (the CSP allows no
            # other origin for images)
            "default_acl": None,
            "querystring_auth": True,
        },
    }
else:
    raise ImproperlyConfigured(
        f"JUNTA_STORAGE={JUNTA_STORAGE!r}: use filesystem, database or s3.")
STORAGES = {
    "default": _uploads,
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if JUNTA_DEV
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
if JUNTA_DEV:
    # WhiteNoise serves the files from the apps' and static/ folders (no collectstatic) as they
    # are now, an edited style sheet at the next reload; DEBUG, off, would not ask it to.
    WHITENOISE_USE_FINDERS = True
    WHITENOISE_AUTOREFRESH = True
    WHITENOISE_MAX_AGE = 0

# --- Security ---------------------------------------------------------------------------------

SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "font-src": [CSP.SELF],
    "connect-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
if not JUNTA_DEV:
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_SECURE_HSTS_SECONDS", str(60 * 60 * 24 * 365)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("DJANGO_SECURE_HSTS_PRELOAD", True)
# X-Forwarded-Proto says "this request came by HTTPS" only when a proxy of ours set it: anyone
# else can send it too. So it is trusted only when the operator says a TLS-terminating proxy
# stands in front and overwrites it (docker-compose.yml sets this variable).
if env_bool("JUNTA_TRUST_X_FORWARDED_PROTO", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# --- Logging ----------------------------------------------------------------------------------

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO")},
    "loggers": {"django.db.backends": {"level": "WARNING"}},
}
