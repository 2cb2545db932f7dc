#!/bin/sh
# One-shot (temporalio/admin-tools): creates the portal's namespace and registers the custom search
# attributes every request workflow sets (deploy/temporal/search-attributes.txt). Safe to run on every `docker compose up`.
set -eu
: "${TEMPORAL_ADDRESS:=temporal:7233}" "${TEMPORAL_NAMESPACE:=default}"
export TEMPORAL_ADDRESS

until temporal operator cluster health >/dev/null 2>&1; do
  echo "waiting for Temporal at $TEMPORAL_ADDRESS"
  sleep 3
done
temporal operator namespace describe -n "$TEMPORAL_NAMESPACE" >/dev/null 2>&1 ||
  temporal operator namespace create -n "$TEMPORAL_NAMESPACE" --retention 30d

# A new namespace takes a few seconds to reach the server's namespace cache.
tries=0
until existing=$(temporal operator search-attribute list -n "$TEMPORAL_NAMESPACE" 2>/dev/null); do
  tries=$((tries + 1))
  [ "$tries" -lt 40 ] || { echo "namespace $TEMPORAL_NAMESPACE did not become usable" >&2; exit 1; }
  sleep 3
done
# The list is generated from workflows/src/search-attributes.ts (a unit test keeps them equal).
for attribute in $(grep -v '^#' /portal/search-attributes.txt); do
  name=${attribute%%=*}
  type=${attribute#*=}
  if printf '%s\n' "$existing" | grep -qw "$name"; then
    echo "search attribute $name exists"
  else
    temporal operator search-attribute create -n "$TEMPORAL_NAMESPACE" --name "$name" --type "$type"
  fi
done
echo "namespace $TEMPORAL_NAMESPACE and search attributes are ready"
