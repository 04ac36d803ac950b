# A log's own statistics (FORMAT.statistics metadata) against the computed
# ones: a repeated entry replaces the earlier; averages may differ by 1 ns;
# any figure, however extreme, is compared without overflow.
cat >own.jsonl <<'END'
{"ts":0,"kind":"meta","pid":1,"tid":7,"name":"thread_name","msg":"TSK: A"}
{"ts":0,"kind":"meta","pid":1,"tid":0,"name":"x.statistics","msg":"s","args":{"context":"TSK: A","count":1,"T.NET":9}}
{"ts":0,"kind":"meta","pid":1,"tid":0,"name":"x.statistics","msg":"s","args":{"context":"TSK: A","count":1,"T.NET":10,"T.NET.AVG":11}}
{"ts":0,"kind":"meta","pid":1,"tid":0,"name":"x.statistics","msg":"t","args":{"count":2,"T.NET.AVG":-9223372036854775808,"T.NET.MAX":9223372036854775807}}
{"ts":0,"kind":"meta","pid":1,"tid":0,"name":"x.statistics","msg":"s","args":{"context":"TSK: B","count":3}}
{"ts":0,"kind":"begin","pid":1,"tid":7,"name":"s"}
{"ts":10,"kind":"end","pid":1,"tid":7,"name":"s"}
{"ts":10,"kind":"begin","pid":1,"tid":7,"name":"t"}
{"ts":14,"kind":"end","pid":1,"tid":7,"name":"t"}
END
tracewright validate own.jsonl; echo "exit $?"
