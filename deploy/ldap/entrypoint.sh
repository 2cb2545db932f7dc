#!/bin/sh
# Container entrypoint for OpenLDAP: renders the project's slapd.conf template, creates the base tree and
# the default password policy on first start (slapadd), then runs slapd in the foreground.
# Environment: LDAP_ADMIN_PASSWORD (required), LDAP_BASE_DN, LDAP_ADMIN_DN, LDAP_DATA_DIR, LDAP_PORT,
# LDAP_LOG_LEVEL, LDAP_TEMPLATE, SLAPD_USER.
set -eu

: "${LDAP_ADMIN_PASSWORD:?LDAP_ADMIN_PASSWORD must be set}"
base_dn="${LDAP_BASE_DN:-dc=portal,dc=test}"
admin_dn="${LDAP_ADMIN_DN:-cn=admin,$base_dn}"
data_dir="${LDAP_DATA_DIR:-/var/lib/portal-ldap}"
port="${LDAP_PORT:-389}"
template="${LDAP_TEMPLATE:-/etc/ldap/portal/slapd.conf.template}"
user="${SLAPD_USER:-openldap}"
conf="$data_dir/slapd.conf"

mkdir -p "$data_dir/db"
esc() { printf '%s' "$1" | sed -e 's/[\\|&]/\\&/g'; }
hash=$(slappasswd -h '{SSHA}' -s "$LDAP_ADMIN_PASSWORD")
sed -e "s|{{DATA_DIR}}|$(esc "$data_dir")|g" \
  -e "s|{{DB_DIR}}|$(esc "$data_dir/db")|g" \
  -e "s|{{BASE_DN}}|$(esc "$base_dn")|g" \
  -e "s|{{ADMIN_DN}}|$(esc "$admin_dn")|g" \
  -e "s|{{ADMIN_PASSWORD_HASH}}|$(esc "$hash")|g" \
  -e "s|{{LOG_LEVEL}}|$(esc "${LDAP_LOG_LEVEL:-none}")|g" \
  "$template" >"$conf"
if grep -q '{{' "$conf"; then
  echo "portal-ldap: unrendered placeholder in $conf" >&2
  exit 1
fi
chmod 600 "$conf"

if [ ! -f "$data_dir/db/data.mdb" ]; then
  dc=$(printf '%s' "$base_dn" | sed -e 's/^dc=\([^,]*\).*/\1/')
  echo "portal-ldap: creating $base_dn"
  slapadd -f "$conf" -b "$base_dn" <<LDIF
dn: $base_dn
objectClass: top
objectClass: dcObject
objectClass: organization
dc: $dc
o: Portal Gateway

dn: ou=people,$base_dn
objectClass: top
objectClass: organizationalUnit
ou: people

dn: ou=policies,$base_dn
objectClass: top
objectClass: organizationalUnit
ou: policies

dn: cn=default,ou=policies,$base_dn
objectClass: top
objectClass: device
objectClass: pwdPolicy
cn: default
pwdAttribute: userPassword
pwdLockout: TRUE
pwdMaxFailure: 5
pwdFailureCountInterval: 0
pwdLockoutDuration: 0
LDIF
fi

if [ "$(id -u)" = 0 ] && id "$user" >/dev/null 2>&1; then
  chown -R "$user:$user" "$data_dir"
  exec slapd -f "$conf" -h "ldap://:$port/" -u "$user" -g "$user" -d 0
fi
exec slapd -f "$conf" -h "ldap://:$port/" -d 0
