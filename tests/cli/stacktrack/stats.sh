# Per-scope statistics of the scopes fixture, by hand: thread 7 runs
# Server::run 1000-5000 (gross 4000) around Server::poll 1500-2500 (1000) and
# Server::handle_request_from_a_client 3100-4200 (1100), so its net is 1900;
# thread 9 runs Server::run 1700-3000 (1300; closed by a HIT with flag bit
# 0x0400).  Server::run: 2 calls, gross 5300, net 3200.
tracewright stats --format csv "$DATA/stacktrack/good/scopes.tlg"
