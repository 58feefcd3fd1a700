#!/usr/bin/env bash
# What the tests need from the machine, installed and started when missing: PostgreSQL on
# 127.0.0.1:5432 (the server's suites run on it as well as SQLite), Redis on 127.0.0.1:6379
# (several servers sharing limits, locks and stop requests) and Debian's Chromium (story,
# visual and app tests). Used by the README's test command and by .ci/run.
set -euo pipefail

if ! pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; then
  if ! command -v pg_ctlcluster >/dev/null 2>&1; then
    apt-get update -q && apt-get install -y -q postgresql
  fi
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | sort -V | tail -n 1)" main start || true
  for _ in $(seq 1 30); do pg_isready -h 127.0.0.1 -p 5432 -q && break; sleep 1; done
  pg_isready -h 127.0.0.1 -p 5432
  # A cluster set up by Debian asks for passwords on TCP: give the test role the one the
  # tests use (postgres://postgres:postgres@127.0.0.1:5432/postgres).
  su postgres -c "psql -q -c \"ALTER USER postgres PASSWORD 'postgres'\""
fi
psql "postgres://postgres:postgres@127.0.0.1:5432/postgres" -qtAc "select 'PostgreSQL ' || current_setting('server_version')"

# Redis: started as a daemon of its own (no init system here); the tests use database 12.
if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  if ! command -v redis-server >/dev/null 2>&1; then
    apt-get update -q && apt-get install -y -q redis-server
  fi
  redis-server --bind 127.0.0.1 --port 6379 --daemonize yes --save '' --appendonly no
  for _ in $(seq 1 30); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && break; sleep 1; done
fi
echo "Redis $(redis-cli -h 127.0.0.1 -p 6379 info server | sed -n 's/^redis_version:\(.*\)\r$/\1/p')"

# The visual baselines are drawn with Liberation fonts (a recommendation of Chromium's that an
# install without recommends leaves out, changing how text renders).
if ! command -v chromium >/dev/null 2>&1 || ! dpkg -s fonts-liberation >/dev/null 2>&1; then
  apt-get update -q && apt-get install -y -q chromium fonts-liberation
fi
chromium --version
