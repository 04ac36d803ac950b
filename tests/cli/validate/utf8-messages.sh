# an RTL message's text is the name of its instant event, which stats and
# validate do not keep (a log of millions of distinct texts would otherwise
# fill memory); a text that is not UTF-8 is still reported once per distinct
# text, as every other name is: here on lines 2 and 4, not on line 3, both
# with one thread and with the reading thread (which copies such texts)
printf 'Process id is 3\n000001 1 | c : Gr\374\337e\n000002 1 | c : Gr\374\337e\n000003 1 | c : caf\351\n000004 1 | c : ok\nclosing log file at 000005\n' >m_3.log
tracewright validate m_3.log; echo "exit $?"
tracewright validate --threads 2 m_3.log; echo "exit $?"
# the same text as a message (line 2) and as a scope's name (lines 3, 4):
# one report, whatever carries it
printf 'Process id is 3\n000001 1 | c : caf\351\n000002 1 { caf\351\n000003 1 } caf\351\nclosing log file at 000004\n' >n_3.log
tracewright validate n_3.log; echo "exit $?"
# an LMS runtime's label is a name and, once a second runtime has a track,
# the value of its track's thread_name: one report, at its first marker (line 2)
printf '2,0,m\377n\n0,0,10\n2,1,m\377n.x\n0,1,1\n2,2,log\n0,2,1\n1,1,1\n1,2,1\n1,0,1\n' >u.csv
tracewright validate u.csv; echo "exit $?"
# two texts with the same 64-bit hash (made so): both are reported, the
# second is not taken for the first
printf '000001 1 | N : AAAAAAA\377zzzz0000\n000002 1 | N : BBBBBBB\3774\370\321\304:\233$~\n' >c_3.log
tracewright validate c_3.log 2>&1 | grep -c 'not valid UTF-8'
