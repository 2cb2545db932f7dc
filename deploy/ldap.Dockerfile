# syntax=docker/dockerfile:1
# OpenLDAP for the portal: Debian's slapd with the same project config as the local stack
# (ldap/slapd.conf.template: mdb, ppolicy with lockout, the portal's ACLs and indexes).
FROM debian:bookworm-slim
RUN apt-get update \
  && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends slapd ldap-utils \
  && rm -rf /var/lib/apt/lists/*
COPY ldap/slapd.conf.template /etc/ldap/portal/slapd.conf.template
COPY deploy/ldap/entrypoint.sh /usr/local/bin/portal-ldap
RUN chmod 755 /usr/local/bin/portal-ldap
ENV LDAP_DATA_DIR=/var/lib/portal-ldap LDAP_PORT=389
VOLUME /var/lib/portal-ldap
EXPOSE 389
HEALTHCHECK --interval=10s --timeout=3s --retries=5 \
  CMD ldapsearch -x -H "ldap://127.0.0.1:${LDAP_PORT}" -b "" -s base -LLL namingContexts >/dev/null || exit 1
ENTRYPOINT ["/usr/local/bin/portal-ldap"]
