#!/usr/bin/env python3
"""make_cases.py - regenerate the bad-input corpus and its EXPECTED list.

Every case is the valid network valid.{net,trips}.tntp with one defect. The
expected message of each case is written by hand below, with the line number
read off the base layout (net: metadata lines 1-5, comment line 7, link rows
on lines 8-15; trips: metadata lines 1-3, Origin blocks on lines 5-10).

Files are named NAME.net.tntp / NAME.trips.tntp (not NAME_net.tntp: the
repository refuses committed files with TNTP-style underscore names).
Run from anywhere: python3 tests/bad_input/make_cases.py
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))

NET_META = [
    "<NUMBER OF ZONES> 3",
    "<NUMBER OF NODES> 5",
    "<FIRST THRU NODE> 4",
    "<NUMBER OF LINKS> 8",
    "<END OF METADATA>",
    "",
    "~\tinit\tterm\tcap\tlength\tfftime\tb\tpower\tspeed\ttoll\ttype\t;",
]
LINKS = [  # lines 8..15
    "\t1\t4\t1000\t1.0\t1.0\t0.15\t4\t60\t0\t1\t;",
    "\t4\t1\t1000\t1.0\t1.0\t0.15\t4\t60\t0\t1\t;",
    "\t2\t5\t1000\t1.0\t1.0\t0.15\t4\t60\t0\t1\t;",
    "\t5\t2\t1000\t1.0\t1.0\t0.15\t4\t60\t0\t1",
    "  3  4  800  2.0  2.0  0.15  4  60  0  1 ;",
    "\t4\t3\t800\t2.0\t2.0\t0.15\t4\t60\t0\t1\t;",
    "\t4\t5\t1.2e3\t1.5\t1.5\t0.15\t4\t60\t0\t1\t;",
    "\t5\t4\t1200\t1.5\t1.5\t0.15\t4\t60\t0\t1\t;\t",
]
TRIPS = [
    "<NUMBER OF ZONES> 3",
    "<TOTAL OD FLOW> 600.0",
    "<END OF METADATA>",
    "",
    "Origin 1",
    "    1 :      0.0;     2 :    100.0;     3 :     50.0;",
    "Origin 2",
    "    1 :    150.0;     2 :      0.0;     3 :    100.0;",
    "Origin 3",
    "    1 :     80.0;     2 :    120.0;     3 :      0.0;",
]


def text(lines):
    return "\n".join(lines) + "\n"


def net_with(row=None, new=None, meta=None, links=None):
    """Base net with link row `row` (1-based) replaced by `new`, or metadata replaced."""
    m = list(NET_META if meta is None else meta)
    l = list(LINKS if links is None else links)
    if row is not None:
        l[row - 1] = new
    return text(m + l)


def trips_with(line=None, new=None, lines=None):
    t = list(TRIPS if lines is None else lines)
    if line is not None:
        t[line - 1] = new
    return text(t)


BASE_NET = text(NET_META + LINKS)
BASE_TRIPS = text(TRIPS)
MISSING = object()

# name: (net contents, trips contents (None = the valid trips, MISSING = no file), expected)
CASES = {}


def case(name, net, trips, expected):
    assert name not in CASES
    CASES[name] = (net, trips, expected)


# --- net header
case("meta_missing_nodes", net_with(meta=[NET_META[0]] + NET_META[2:]), None,
     "meta_missing_nodes.net.tntp:4: missing <NUMBER OF NODES> in the header")
case("meta_missing_links", net_with(meta=NET_META[:3] + NET_META[4:]), None,
     "meta_missing_links.net.tntp:4: missing <NUMBER OF LINKS> in the header")
case("meta_nodes_absurd", net_with(meta=[NET_META[0], "<NUMBER OF NODES> 100000000"] + NET_META[2:]), None,
     "meta_nodes_absurd.net.tntp:2: <NUMBER OF NODES> 100000000, but the link rows use only 5 distinct node ids")
case("meta_nodes_zones_absurd", net_with(meta=["<NUMBER OF ZONES> 100000000", "<NUMBER OF NODES> 100000000"]
                                         + NET_META[2:]), None,
     "meta_nodes_zones_absurd.net.tntp:2: <NUMBER OF NODES> 100000000, but the link rows use only 5")
case("meta_zones_gt_nodes", net_with(meta=["<NUMBER OF ZONES> 6"] + NET_META[1:]), None,
     "meta_zones_gt_nodes.net.tntp:1: <NUMBER OF ZONES> 6 exceeds <NUMBER OF NODES> 5")
case("meta_first_thru_range", net_with(meta=NET_META[:2] + ["<FIRST THRU NODE>\t9"] + NET_META[3:]), None,
     "meta_first_thru_range.net.tntp:3: <FIRST THRU NODE> 9 out of range 1..4")
case("meta_first_thru_zero", net_with(meta=NET_META[:2] + ["<FIRST THRU NODE> 0"] + NET_META[3:]), None,
     "meta_first_thru_zero.net.tntp:3: <FIRST THRU NODE> must be a positive integer, got '0'")
case("meta_not_integer", net_with(meta=[NET_META[0], "<NUMBER OF NODES> five"] + NET_META[2:]), None,
     "meta_not_integer.net.tntp:2: <NUMBER OF NODES> must be a positive integer, got 'five'")
# a positive integer, only too large: said so (it said "must be a positive integer")
case("meta_links_too_many", net_with(meta=NET_META[:3] + ["<NUMBER OF LINKS> 2147483648"] + NET_META[4:]), None,
     "meta_links_too_many.net.tntp:4: <NUMBER OF LINKS> is 2147483648: more than this program reads (100000000)")
case("meta_duplicate", net_with(meta=NET_META[:2] + ["<NUMBER OF NODES> 5"] + NET_META[2:]), None,
     "meta_duplicate.net.tntp:3: duplicate <NUMBER OF NODES> (first at line 2)")
case("meta_no_end", net_with(meta=NET_META[:4] + NET_META[5:]), None,
     "meta_no_end.net.tntp:7: expected '<KEY> value' or <END OF METADATA> in the header, got '1")
case("meta_truncated", text(NET_META[:3]), None,
     "meta_truncated.net.tntp:3: file ends before <END OF METADATA>")

# --- link rows
case("links_more_rows", net_with(links=LINKS + ["\t1\t4\t1000\t1.0\t1.0\t0.15\t4\t60\t0\t1\t;"]), None,
     "links_more_rows.net.tntp:16: more link rows than <NUMBER OF LINKS> 8")
case("links_fewer_rows", net_with(links=LINKS[:7]), None,
     "links_fewer_rows.net.tntp:14: found 7 link rows, <NUMBER OF LINKS> says 8")
case("links_truncated_row", BASE_NET.rstrip("\n").rsplit("\n", 1)[0] + "\n\t5\t4\t1200\t1.5", None,
     "links_truncated_row.net.tntp:15: too few columns: 4, expected 10")
case("links_too_few_columns", net_with(3, "\t2\t5\t1000\t1.0\t1.0\t0.15\t4\t60\t0\t;"), None,
     "links_too_few_columns.net.tntp:10: too few columns: 9, expected 10")
case("links_too_many_columns", net_with(3, "\t2\t5\t1000\t1.0\t1.0\t0.15\t4\t60\t0\t1\t7\t;"), None,
     "links_too_many_columns.net.tntp:10: too many columns: 11, expected 10")
case("links_text_after_semicolon", net_with(2, "\t4\t1\t1000\t1.0\t1.0\t0.15\t4\t60\t0\t1\t; 4 2"), None,
     "links_text_after_semicolon.net.tntp:9: unexpected text after ';': '4 2'")
# a row with a ';' too early (here at its start): the rest said as text, tabs as
# spaces (it printed '1\x094\x091\x09...')
case("links_semicolon_first", net_with(2, ";\t4\t1\t1000\t1.0\t1.0\t0.15\t4\t60\t0\t1\t;"), None,
     "links_semicolon_first.net.tntp:9: unexpected text after ';': '4 1 1000 1.0 1.0 0.15 4 60 0 1 ;'")
case("node_out_of_range", net_with(4, "\t5\t7\t1000\t1.0\t1.0\t0.15\t4\t60\t0\t1\t;"), None,
     "node_out_of_range.net.tntp:11: term node 7 out of range 1..5")
case("node_zero", net_with(1, "\t0\t4\t1000\t1.0\t1.0\t0.15\t4\t60\t0\t1\t;"), None,
     "node_zero.net.tntp:8: init node 0 out of range 1..5")
case("node_not_integer", net_with(5, "\t3.5\t4\t800\t2.0\t2.0\t0.15\t4\t60\t0\t1\t;"), None,
     "node_not_integer.net.tntp:12: init node: expected a node number, got '3.5'")
case("capacity_non_numeric", net_with(2, "\t4\t1\tabc\t1.0\t1.0\t0.15\t4\t60\t0\t1\t;"), None,
     "capacity_non_numeric.net.tntp:9: capacity: expected a number, got 'abc'")
case("capacity_negative", net_with(3, "\t2\t5\t-5\t1.0\t1.0\t0.15\t4\t60\t0\t1\t;"), None,
     "capacity_negative.net.tntp:10: capacity must be positive, got -5")
case("capacity_zero", net_with(6, "\t4\t3\t0\t2.0\t2.0\t0.15\t4\t60\t0\t1\t;"), None,
     "capacity_zero.net.tntp:13: capacity must be positive, got 0")
case("capacity_inf", net_with(6, "\t4\t3\tinf\t2.0\t2.0\t0.15\t4\t60\t0\t1\t;"), None,
     "capacity_inf.net.tntp:13: capacity must be finite, got 'inf'")
case("capacity_overflow", net_with(6, "\t4\t3\t1e999\t2.0\t2.0\t0.15\t4\t60\t0\t1\t;"), None,
     "capacity_overflow.net.tntp:13: capacity must be finite, got '1e999'")
case("fftime_negative", net_with(8, "\t5\t4\t1200\t1.5\t-1.5\t0.15\t4\t60\t0\t1\t;"), None,
     "fftime_negative.net.tntp:15: free-flow time must be non-negative, got -1.5")
case("fftime_nan", net_with(1, "\t1\t4\t1000\t1.0\tnan\t0.15\t4\t60\t0\t1\t;"), None,
     "fftime_nan.net.tntp:8: free-flow time must be finite, got 'nan'")
case("length_negative", net_with(1, "\t1\t4\t1000\t-1.0\t1.0\t0.15\t4\t60\t0\t1\t;"), None,
     "length_negative.net.tntp:8: length must be non-negative, got -1.0")
case("b_negative", net_with(4, "\t5\t2\t1000\t1.0\t1.0\t-0.15\t4\t60\t0\t1"), None,
     "b_negative.net.tntp:11: b must be non-negative, got -0.15")
case("power_negative", net_with(4, "\t5\t2\t1000\t1.0\t1.0\t0.15\t-4\t60\t0\t1"), None,
     "power_negative.net.tntp:11: power must be non-negative, got -4")
case("toll_nan", net_with(2, "\t4\t1\t1000\t1.0\t1.0\t0.15\t4\t60\tNaN\t1\t;"), None,
     "toll_nan.net.tntp:9: toll must be finite, got 'NaN'")
case("link_type_not_integer", net_with(2, "\t4\t1\t1000\t1.0\t1.0\t0.15\t4\t60\t0\tx\t;"), None,
     "link_type_not_integer.net.tntp:9: link type: expected an integer, got 'x'")

# --- not text at all
case("net_empty", "", None, "net_empty.net.tntp: file is empty")
case("net_binary_nul", BASE_NET[:30].encode() + b"\0\0\0\x01\x02" + BASE_NET[30:].encode(), None,
     "net_binary_nul.net.tntp:2: binary data: NUL byte")
case("net_binary_bytes", b"\x89PNG\r\n\x1a\n" + bytes(range(200, 256)) * 4, None,
     "net_binary_bytes.net.tntp:1: binary data: invalid byte 0x89")

# --- trips
case("trips_missing", BASE_NET, MISSING,
     "trips_missing.trips.tntp: cannot open trips file: No such file or directory")
case("trips_empty", BASE_NET, "", "trips_empty.trips.tntp: file is empty")
case("trips_binary", BASE_NET, BASE_TRIPS[:40].encode() + b"\0" + BASE_TRIPS[40:].encode(),
     "trips_binary.trips.tntp:2: binary data: NUL byte")
case("trips_zone_mismatch", BASE_NET, trips_with(1, "<NUMBER OF ZONES> 4"),
     "trips_zone_mismatch.trips.tntp:1: <NUMBER OF ZONES> 4 does not match 3 in")
case("trips_missing_zones", BASE_NET, text(TRIPS[1:]),
     "trips_missing_zones.trips.tntp:2: missing <NUMBER OF ZONES> in the header")
case("trips_truncated_header", BASE_NET, text(TRIPS[:2]),
     "trips_truncated_header.trips.tntp:2: file ends before <END OF METADATA>")
case("trips_dest_not_zone", BASE_NET, trips_with(8, "    1 :    150.0;     4 :      0.0;     3 :    100.0;"),
     "trips_dest_not_zone.trips.tntp:8: destination 4 is not a zone (zones are 1..3)")
case("trips_origin_not_zone", BASE_NET, trips_with(9, "Origin 5"),
     "trips_origin_not_zone.trips.tntp:9: origin 5 is not a zone (zones are 1..3)")
case("trips_negative", BASE_NET, trips_with(6, "    1 :      0.0;     2 :   -100.0;     3 :    250.0;"),
     "trips_negative.trips.tntp:6: demand from 1 to 2 must be non-negative, got -100.0")
case("trips_nan", BASE_NET, trips_with(10, "    1 :     80.0;     2 :    nan;     3 :      0.0;"),
     "trips_nan.trips.tntp:10: demand from 3 to 2 must be finite, got 'nan'")
case("trips_non_numeric", BASE_NET, trips_with(10, "    1 :     80.0;     2 :    lots;     3 :      0.0;"),
     "trips_non_numeric.trips.tntp:10: demand from 3 to 2: expected a number, got 'lots'")
case("trips_bad_entry", BASE_NET, trips_with(6, "    1 :      0.0;     2     100.0;     3 :     50.0;"),
     "trips_bad_entry.trips.tntp:6: expected 'destination : demand', got '2 100.0'")
case("trips_duplicate_origin", BASE_NET, trips_with(9, "Origin 1"),
     "trips_duplicate_origin.trips.tntp:9: duplicate 'Origin 1' block (first at line 5)")
case("trips_duplicate_dest", BASE_NET, trips_with(8, "    1 :    150.0;     3 :      0.0;     3 :    100.0;"),
     "trips_duplicate_dest.trips.tntp:8: duplicate destination 3 for origin 2 (first at line 8)")
case("trips_entry_before_origin", BASE_NET, text(TRIPS[:4] + [TRIPS[5]] + TRIPS[4:]),
     "trips_entry_before_origin.trips.tntp:5: demand entry before the first 'Origin' line")
case("trips_total_mismatch", BASE_NET, trips_with(2, "<TOTAL OD FLOW>\t\t999"),
     "trips_total_mismatch.trips.tntp:2: <TOTAL OD FLOW> 999 does not match the sum of the entries, 600")
# A total printed with fewer digits than the sum (%g: Terrassa-Asymmetric's
# 2.52257e+007 for 25,225,746.76) holds when the sum rounds to it, to at most
# half a unit in the sixth significant digit (%g drops trailing zeros: "1e+05"
# is 100000 to six digits): 100000.4 is accepted, 100000.6 is not.
def trips_summing(total, last):
    return trips_with(lines=[TRIPS[0], "<TOTAL OD FLOW> " + total] + TRIPS[2:9]
                      + ["    1 : %10s;     2 :    120.0;     3 :      0.0;" % last])


case("trips_total_beyond_printed", BASE_NET, trips_summing("1e+05", "99480.6"),
     "trips_total_beyond_printed.trips.tntp:2: <TOTAL OD FLOW> 100000 does not match the sum of the entries, 100000.6")
# the line where the sum of the entries leaves the doubles (it named no line)
case("trips_sum_overflow", BASE_NET, trips_with(6, "    1 :      0.0;     2 :   1.5e308;     3 :   1.5e308;"),
     "trips_sum_overflow.trips.tntp:6: the demand entries sum past the largest double here (demand from 1 to 3")
case("trips_truncated", BASE_NET, text(TRIPS[:9]) + "    1 :     80.0;     2 :",
     "trips_truncated.trips.tntp:10: missing demand after '2 :'")
case("trips_origin_without_zone", BASE_NET, trips_with(7, "Origin"),
     "trips_origin_without_zone.trips.tntp:7: 'Origin' without a zone number")


# --- real files: accepted, with what the reader did said on stderr
# name: (net, trips, expected stderr substring or "" for none)
ACCEPTED = {}
SPARSE = {"1": "1001", "2": "1002", "3": "1003", "4": "75674", "5": "2146237932"}


def sparse_row(row):
    f = row.split()
    f[0], f[1] = SPARSE[f[0]], SPARSE[f[1]]
    return "\t" + "\t".join(f)


def sparse_trips():
    out = []
    for l in TRIPS:
        if l.startswith("Origin"):
            out.append("Origin " + SPARSE[l.split()[1]])
        elif ":" in l and not l.startswith("<"):
            parts = [p for p in l.split(";") if p.strip()]
            out.append("  " + "; ".join(SPARSE[p.split(":")[0].strip()] + " : " + p.split(":")[1].strip()
                                       for p in parts) + ";")
        else:
            out.append(l)
    return text(out)


ACCEPTED["self_loop"] = (net_with(meta=NET_META[:3] + ["<NUMBER OF LINKS> 9"] + NET_META[4:],
                                  links=LINKS[:6] + ["\t4\t4\t1200\t1.5\t1.5\t0.15\t4\t60\t0\t1\t;"] + LINKS[6:]),
                         None, "self_loop.net.tntp:14: self-loop at node 4 dropped")
ACCEPTED["meta_missing_zones"] = (net_with(meta=NET_META[1:]), None, "")
ACCEPTED["sparse_ids"] = (text([NET_META[0], NET_META[1], NET_META[3], NET_META[4], NET_META[5], NET_META[6]]
                               + [sparse_row(l) for l in LINKS]), sparse_trips(), "")
ACCEPTED["bom"] = ("\ufeff" + BASE_NET, "\ufeff" + BASE_TRIPS, "")
ACCEPTED["total_printed_g"] = (BASE_NET, trips_summing("1e+05", "99480.4"), "")
# Line ends: CRLF (Windows), and CR alone (classic Mac OS: it read as one line,
# "<NUMBER OF ZONES> must be a positive integer, got '3\x0d<NUMBER OF NODES>...'").
ACCEPTED["crlf_line_ends"] = (BASE_NET.replace("\n", "\r\n"), BASE_TRIPS.replace("\n", "\r\n"), "")
ACCEPTED["cr_line_ends"] = (BASE_NET.replace("\n", "\r"), BASE_TRIPS.replace("\n", "\r"), "")
# Columns after the tenth, read past where the column-name line names them
# after the ten standard ones (a public Nguyen-Dupuis file adds
# saturation_flow); the rows may also stop at ten.
EXTRA_HEAD = "~\tinit_node\tterm_node\tcapacity\tlength\tfree_flow_time\tb\tpower\tspeed\ttoll\tlink_type\tsaturation_flow;"
EXTRA_ROWS = [l.rstrip("\t;") + "\t6\t;" for l in LINKS[:-1]] + [LINKS[-1]]
ACCEPTED["extra_named_column"] = (text(NET_META[:6] + [EXTRA_HEAD] + EXTRA_ROWS), None,
                                  "extra_named_column.net.tntp:7: the column line names 1 column after the ten of "
                                  "the link format (saturation_flow)")
ACCEPTED["extra_named_columns_spaces"] = (
    text(NET_META[:6] + ["~ Init node \tTerm node \tCapacity \tLength \tFree Flow Time \tB\tPower\tSpeed limit "
                         "\tToll \tType\tLanes\tCapacity (per lane)\t;"] + EXTRA_ROWS), None,
    "extra_named_columns_spaces.net.tntp:7: the column line names 2 columns after the ten of the link format "
    "(Lanes, Capacity (per lane))")
# Ten columns whose column line names three of them otherwise (one public
# file has capacity per lane, "critical speed (km/h)" and "lanes" where TNTP
# has toll and link_type): read by position, with a note.
ACCEPTED["columns_named_otherwise"] = (
    text(NET_META[:6] + ["~\tfrom\tto\tcapacity (per lane)\tlength (km)\tfftt (min)\talpha\tbeta\tff speed (km/h)"
                         "\tcritical speed (km/h)\tlanes\t"] + LINKS), None,
    "columns_named_otherwise.net.tntp:7: the column line names column 3 'capacity (per lane)' where TNTP has "
    "capacity, column 9 'critical speed (km/h)' where TNTP has toll, "
    "column 10 'lanes' where TNTP has link_type: read by position as the TNTP columns")
case("links_extra_column_misordered", text(NET_META[:6] + [EXTRA_HEAD.replace("init_node\tterm_node", "term_node\tinit_node")]
                                           + EXTRA_ROWS), None,
     "links_extra_column_misordered.net.tntp:8: too many columns: 11, expected 10 (init_node term_node capacity "
     "length free_flow_time b power speed toll link_type); the column line (line 7) names column 1 'term_node', not "
     "init_node")
case("links_more_columns_than_named", text(NET_META[:6] + [EXTRA_HEAD] + EXTRA_ROWS[:1] + [EXTRA_ROWS[1].rstrip("\t;")
                                           + "\t7\t;"] + EXTRA_ROWS[2:]), None,
     "links_more_columns_than_named.net.tntp:9: too many columns: 12, expected at most 11 (line 7 names them)")
case("sparse_trips_not_node", ACCEPTED["sparse_ids"][0], sparse_trips().replace("Origin 1003", "Origin 1007"),
     "sparse_trips_not_node.trips.tntp:9: origin 1007 is not a node of the network")
case("sparse_too_many_ids", text([NET_META[0], NET_META[1], NET_META[3], NET_META[4]]
                                 + [sparse_row(l) for l in LINKS[:7]] + ["\t1001\t99\t1\t1\t1\t0\t1\t1\t0\t1"]),
     None, "sparse_too_many_ids.net.tntp:5: init node 1001 out of range 1..5 (<NUMBER OF NODES>); the links use 6")


def write(path, data):
    mode = "wb" if isinstance(data, bytes) else "w"
    with open(path, mode) as f:
        f.write(data)


def main():
    for f in os.listdir(HERE):
        if f.endswith(".tntp"):
            os.remove(os.path.join(HERE, f))
    write(os.path.join(HERE, "valid.net.tntp"), BASE_NET)
    write(os.path.join(HERE, "valid.trips.tntp"), BASE_TRIPS)
    lines = ["# NAME<TAB>expected \"file:line: message\" substring (file:line omitted when the",
             "# error has no line). Generated by make_cases.py; every NAME.net.tntp here except",
             "# valid.net.tntp must fail to load with this message and exit status 2."]
    for name, (net, trips, expected) in CASES.items():
        write(os.path.join(HERE, name + ".net.tntp"), net)
        if trips is not MISSING:
            write(os.path.join(HERE, name + ".trips.tntp"), BASE_TRIPS if trips is None else trips)
        lines.append("%s\t%s" % (name, expected))
    write(os.path.join(HERE, "EXPECTED"), "\n".join(lines) + "\n")
    lines = ["# NAME<TAB>substring expected on stderr (empty: any). Generated by make_cases.py;",
             "# every NAME.net.tntp listed here is a real-file quirk that must load and solve."]
    for name, (net, trips, expected) in ACCEPTED.items():
        write(os.path.join(HERE, name + ".net.tntp"), net)
        write(os.path.join(HERE, name + ".trips.tntp"), BASE_TRIPS if trips is None else trips)
        lines.append("%s\t%s" % (name, expected))
    write(os.path.join(HERE, "ACCEPTED"), "\n".join(lines) + "\n")
    print("%d cases" % len(CASES))


if __name__ == "__main__":
    main()
