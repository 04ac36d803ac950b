# Rows per thread name their thread: the latest thread_name metadata event
# of its pid and tid (a thread renamed keeps its last name; the same tid in
# another process is another thread; an empty name is none).  In the table
# a THREAD column (cut at 32 characters, on one line), in CSV a `thread`
# column, in JSON a "thread" member ("thread_base64" when the name is not
# UTF-8) that --merge reads back.
#   pid 1 tid 1: "boot", renamed "main"; a 0..10
#   pid 1 tid 2: a name of 40 characters; a 2..5
#   pid 2 tid 1: "worker\nline two"; b 0..4
#   pid 2 tid 2: no name; b 1..2
#   pid 2 tid 3: named "" (none); b 2..3
cat >names.jsonl <<'END'
{"ts":0,"kind":"meta","pid":1,"tid":1,"name":"thread_name","msg":"boot"}
{"ts":0,"kind":"meta","pid":1,"tid":2,"name":"thread_name","msg":"0123456789abcdefghijklmnopqrstuvwxyzABCD"}
{"ts":0,"kind":"meta","pid":2,"tid":1,"name":"thread_name","msg":"worker\nline two"}
{"ts":0,"kind":"meta","pid":2,"tid":3,"name":"thread_name","msg":""}
{"ts":0,"kind":"begin","pid":1,"tid":1,"name":"a"}
{"ts":0,"kind":"begin","pid":2,"tid":1,"name":"b"}
{"ts":1,"kind":"begin","pid":2,"tid":2,"name":"b"}
{"ts":2,"kind":"end","pid":2,"tid":2,"name":"b"}
{"ts":2,"kind":"begin","pid":1,"tid":2,"name":"a"}
{"ts":2,"kind":"begin","pid":2,"tid":3,"name":"b"}
{"ts":3,"kind":"end","pid":2,"tid":3,"name":"b"}
{"ts":4,"kind":"end","pid":2,"tid":1,"name":"b"}
{"ts":5,"kind":"end","pid":1,"tid":2,"name":"a"}
{"ts":6,"kind":"meta","pid":1,"tid":1,"name":"thread_name","msg":"main"}
{"ts":10,"kind":"end","pid":1,"tid":1,"name":"a"}
END
for t in 1 2; do
    tracewright stats --threads $t --by thread --sort name names.jsonl >table$t.txt
done
cmp table1.txt table2.txt && echo "one thread or two: same table"
cat table1.txt
tracewright stats --by thread --sort name --format csv names.jsonl
tracewright stats --by thread --sort name --format json names.jsonl >names.json
grep '"name"' names.json | cut -d, -f1-4
echo "--by scope: no thread"
tracewright stats --sort name --format csv names.jsonl | cut -d, -f1-3
tracewright stats --sort name --format json names.jsonl | grep -c '"thread"'
echo "merged back"
tracewright stats --merge --by thread --sort name --format json names.json | cmp - names.json &&
    echo "the merge of one report is that report"
# two reports naming the same thread (pid 1, tid 1) differently: the merged
# row keeps one name whatever the order of the reports (a named thread
# before an unnamed one, then by bytes)
cat >other.jsonl <<'END'
{"ts":0,"kind":"meta","pid":1,"tid":1,"name":"thread_name","msg":"loop"}
{"ts":0,"kind":"begin","pid":1,"tid":1,"name":"a"}
{"ts":3,"kind":"end","pid":1,"tid":1,"name":"a"}
{"ts":3,"kind":"begin","pid":2,"tid":2,"name":"b"}
{"ts":4,"kind":"end","pid":2,"tid":2,"name":"b"}
END
cat >unnamed.jsonl <<'END'
{"ts":0,"kind":"begin","pid":1,"tid":1,"name":"a"}
{"ts":4,"kind":"end","pid":1,"tid":1,"name":"a"}
END
tracewright stats --by thread --format json other.jsonl >other.json
tracewright stats --by thread --format json unnamed.jsonl >unnamed.json
tracewright stats --merge --by thread --sort name --format csv names.json other.json | cut -d, -f1-5 >ab.csv
tracewright stats --merge --by thread --sort name --format csv other.json names.json | cut -d, -f1-5 >ba.csv
cmp ab.csv ba.csv && echo "either order: same names"
cat ab.csv
for order in "unnamed.json other.json" "other.json unnamed.json"; do
    # shellcheck disable=SC2086 # two file names
    tracewright stats --merge --by thread --sort name --format csv $order | sed -n 2p | cut -d, -f1-5
done
# a name that is not UTF-8: base64 in JSON, its bytes again once merged
printf '%s\n' '{"ts":0,"kind":"meta","pid":1,"tid":1,"name":"thread_name","msg_base64":"bG9v/w=="}' \
    '{"ts":0,"kind":"begin","pid":1,"tid":1,"name":"a"}' '{"ts":1,"kind":"end","pid":1,"tid":1,"name":"a"}' >bytes.jsonl
tracewright stats --by thread --format json bytes.jsonl >bytes.json
grep -o '"tid":1,"thread[^,]*,"thread[^,]*' bytes.json
tracewright stats --merge --by thread --format csv bytes.json | sed -n 2p | cut -d, -f1-4 | od -An -c | tr -s ' '
# --thread-name REGEX keeps the rows of threads whose name matches (a thread
# without a name never does), per thread or grouped per scope afterwards
echo "--thread-name"
tracewright stats --by thread --thread-name '^(main|worker)' --sort name --format csv names.jsonl | cut -d, -f1-4
tracewright stats --thread-name 'line two$' --format csv names.jsonl | cut -d, -f1-3
tracewright stats --merge --thread-name '^l' --format csv names.json other.json | cut -d, -f1-3
tracewright stats --thread-name '(' names.jsonl
echo "exit $?"
# a name cut at 32 characters ends on a whole character; --thread-name
# with --tid; a report's empty "thread" is no name; where no thread has a
# name, a note says why --thread-name matches nothing
printf '%s\n' '{"ts":0,"kind":"meta","pid":1,"tid":1,"name":"thread_name","msg":"ééééééééééééééééééééééééééééééééééé"}' \
    '{"ts":0,"kind":"begin","pid":1,"tid":1,"name":"a"}' '{"ts":1,"kind":"end","pid":1,"tid":1,"name":"a"}' >wide.jsonl
tracewright stats --by thread wide.jsonl | sed -n 4,5p
tracewright stats --by thread --thread-name '^(main|worker)' --tid 1 --format csv names.jsonl | cut -d, -f1-4
sed 's/"thread":"main"/"thread":""/' names.json >empty.json
tracewright stats --merge --by thread --sort name empty.json | sed -n 5p
tracewright stats --merge --thread-name '^$' --format csv empty.json | cut -d, -f1-3
printf '%s\n' '{"ts":0,"kind":"begin","pid":1,"tid":1,"name":"a"}' '{"ts":1,"kind":"end","pid":1,"tid":1,"name":"a"}' >plain.jsonl
tracewright stats --thread-name main --format csv plain.jsonl
# wide characters take two columns: a name of 26 of them is cut to 14 and
# "..." (31 columns), and the SCOPE column stays aligned after shorter ones
printf '%s\n' '{"ts":0,"kind":"meta","pid":1,"tid":1,"name":"thread_name","msg":"主线程渲染器工作线程第一号主线程渲染器工作线程第一号"}' \
    '{"ts":0,"kind":"meta","pid":1,"tid":2,"name":"thread_name","msg":"主线程"}' \
    '{"ts":0,"kind":"begin","pid":1,"tid":1,"name":"a"}' '{"ts":1,"kind":"end","pid":1,"tid":1,"name":"a"}' \
    '{"ts":0,"kind":"begin","pid":1,"tid":2,"name":"b"}' '{"ts":1,"kind":"end","pid":1,"tid":2,"name":"b"}' >cjk.jsonl
tracewright stats --by thread --sort name cjk.jsonl | sed -n 4,6p
