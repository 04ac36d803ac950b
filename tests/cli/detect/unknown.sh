# unknown input: candidates and -f are suggested; exit 2; known files still print
printf 'hello\n' >notes.txt
printf '000001 1 { a\n000002 1 } a\nsomething else\n' >weak.log
cp "$DATA/lms/good/wiki-example.csv" .
tracewright detect notes.txt weak.log wiki-example.csv missing.csv
