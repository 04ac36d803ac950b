# what a conversion from each readable format into each writable one loses
tracewright formats --matrix
