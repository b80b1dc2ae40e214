vcl 4.1;
# A CDN edge for the event calendar API: Varnish 7.1 with varnish-modules (xkey). docs/cdn.md says
# how to run it. Replace each backend's .host and .port with a node's address, one backend per node
# (add or remove `backend` blocks, and their `nodes.add_backend` lines in vcl_init).
#
# - Requests go to the nodes in turn, to those whose /ready answers only; a request whose node
#   refused or dropped the connection is asked again of the next node (docs/operating.md, "Rolling
#   a new version with no failed request").
# - GET and HEAD are cached by the whole URL (the query string holds the GraphQL document and its
#   variables) and by the answer's Vary headers, for what its Cache-Control says (s-maxage); POST
#   and anything else pass to the service.
# - While the service answers, a copy past its freshness is served only within its own
#   stale-while-revalidate (while one request fetches it again); later it is fetched afresh.
# - While the service is down or answers errors, a copy is served for as long as its
#   stale-if-error says (a day): readers see the calendar as it was, not an error.
# - PURGE with a Surrogate-Key header (space-separated keys) soft-purges the copies tagged with
#   them (xkey), from the addresses in `purgers` only; the tag headers never reach clients.
# - A copy never keeps the RateLimit headers of the caller whose request fetched it.
# - Compressed copies (docs/cdn.md, "Compression"): gzip as Varnish does natively (it asks the node
#   for gzip, keeps the gzip copy, and inflates it for a client that does not accept gzip); brotli is
#   passed through: a client that accepts br gets a copy of its own, made by the node (the hash
#   holds the normalised Accept-Encoding, and the node is asked for br, since Varnish would ask it
#   for gzip). The node's answers say `Vary: Accept-Encoding`.
import directors;
import std;
import xkey;

# A node is sick while /ready fails (database unreachable, schema behind, read model being built,
# shutting down) or it does not answer: 2 failed probes of the last 3, so within about 2 s. A node
# given SIGTERM keeps answering, with /ready at 503, for SHUTDOWN_DELAY_MS (3000 or more with this
# probe), so it is out of the rotation before it stops accepting. While every node is sick, copies
# are served from grace.
probe ready {
  .url = "/ready";
  .interval = 1s;
  .timeout = 1s;
  .window = 3;
  .threshold = 2;
  .initial = 2;
}

backend node_1 {
  .host = "127.0.0.1";
  .port = "4000";
  .probe = ready;
}

backend node_2 {
  .host = "127.0.0.1";
  .port = "4001";
  .probe = ready;
}

sub vcl_init {
  new nodes = directors.round_robin();
  nodes.add_backend(node_1);
  nodes.add_backend(node_2);
}

# Who may purge: the service's nodes. Replace with their addresses.
acl purgers {
  "127.0.0.1";
  "::1";
}

sub vcl_recv {
  set req.backend_hint = nodes.backend();
  if (req.method == "PURGE") {
    if (client.ip !~ purgers) {
      return (synth(403, "Not allowed"));
    }
    set req.http.x-purged = xkey.softpurge(req.http.Surrogate-Key);
    return (synth(200, "Purged " + req.http.x-purged));
  }
  # Brotli or not, normalised (q=0 refuses it): Varnish itself then rewrites Accept-Encoding to gzip
  # or nothing once vcl_recv returns, so the brotli choice travels in a header of its own.
  unset req.http.x-brotli;
  if (req.http.Accept-Encoding ~ "(^|,)\s*br\s*(,|$|;\s*q=(1|0?\.[0-9]*[1-9]))") {
    set req.http.x-brotli = "br";
  }
  if (req.method != "GET" && req.method != "HEAD") {
    if (req.method == "POST" && std.integer(req.http.Content-Length, 102401) <= 102400) {
      # Kept, so that a retry on another node can send it again. Only what the service reads (100 KiB
      # at most): a larger body, or one of no stated length, streams to the node, which answers 413.
      std.cache_req_body(100KB);
    }
    return (pass);
  }
  if (req.http.x-refetch) {
    # Restarted by vcl_hit: fetch afresh instead of serving the copy past its own window.
    set req.grace = 0s;
  }
  if (req.http.x-serve-stale) {
    # Restarted by vcl_synth: the fetch failed; any copy within its grace will do.
    unset req.http.x-refetch;
  }
}

sub vcl_hash {
  # A brotli copy apart from the gzip one (both are stored under Vary: Accept-Encoding, which Varnish
  # compares after its rewrite to gzip); then the built-in hash (URL and host).
  if (req.http.x-brotli) {
    hash_data(req.http.x-brotli);
  }
}

sub vcl_backend_fetch {
  # The node is asked for what the copy is for: br (Varnish set gzip), else what Varnish set.
  if (bereq.http.x-brotli) {
    set bereq.http.Accept-Encoding = bereq.http.x-brotli;
  }
  unset bereq.http.x-brotli;
}

sub vcl_hit {
  # Beyond its stale-while-revalidate while the service is healthy: fetched afresh (once per request).
  if (obj.ttl + std.duration(obj.http.x-stale-while-revalidate, 0s) < 0s && std.healthy(req.backend_hint)
      && !req.http.x-refetch && !req.http.x-serve-stale) {
    set req.http.x-refetch = "1";
    return (restart);
  }
}

sub vcl_backend_response {
  # The built-in rules took the TTL from s-maxage and the grace from stale-while-revalidate: keep
  # that window for vcl_hit, and let the copy outlive its freshness for stale-if-error.
  if (beresp.http.Cache-Control ~ "stale-while-revalidate=[0-9]+") {
    set beresp.http.x-stale-while-revalidate = regsub(beresp.http.Cache-Control, "^.*stale-while-revalidate=([0-9]+).*$", "\1s");
  }
  if (beresp.http.Cache-Control ~ "stale-if-error=[0-9]+") {
    set beresp.grace = std.duration(regsub(beresp.http.Cache-Control, "^.*stale-if-error=([0-9]+).*$", "\1s"), 0s);
  }
  if (beresp.http.Surrogate-Key) {
    set beresp.http.xkey = beresp.http.Surrogate-Key;
  }
  if (beresp.ttl > 0s) {
    # One caller's budget (RateLimit, RateLimit-Policy) is not every reader's: a shared copy keeps none.
    unset beresp.http.RateLimit;
    unset beresp.http.RateLimit-Policy;
  }
  if ((beresp.status >= 500 || beresp.ttl <= 0s) && (bereq.is_bgfetch || bereq.http.x-refetch)) {
    # A refresh that failed keeps the copy it was refreshing (an uncacheable answer would otherwise
    # hide it behind a hit-for-miss, and it would be gone for stale-if-error): a background one
    # silently, a request's one through vcl_synth. An answer of max-age=0 comes from a node still
    # reading a new import (docs/cdn.md): the next request asks again.
    return (abandon);
  }
}

sub vcl_backend_error {
  # No answer from the node (connection refused or closed: a node stopping or gone; or a timeout):
  # asked again, of the next node. Safe for every request: the API changes nothing, whatever the
  # method (a POST carries a query, and its body was kept in vcl_recv).
  if (bereq.retries < 2) {
    return (retry);
  }
  if (bereq.is_bgfetch || bereq.http.x-refetch) {
    # The service cannot be reached: keep the copy (see above).
    return (abandon);
  }
}

sub vcl_synth {
  # A fetch afresh that failed (service down, or an error it answered): answer from the copy instead.
  if (resp.status == 503 && req.http.x-refetch && !req.http.x-serve-stale && req.restarts < 3) {
    set req.http.x-serve-stale = "1";
    return (restart);
  }
}

sub vcl_deliver {
  if (resp.status >= 500 && req.http.x-refetch && !req.http.x-serve-stale && req.restarts < 3) {
    # An error delivered for a fetch afresh: answer from the copy instead.
    set req.http.x-serve-stale = "1";
    return (restart);
  }
  unset resp.http.x-stale-while-revalidate;
  unset resp.http.xkey;
  unset resp.http.Surrogate-Key;
}
