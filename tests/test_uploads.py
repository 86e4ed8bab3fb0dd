"""Uploaded CSVs: good files parse, every bad file gets a message that says what to do.

The hostile corpus of issue #14 is here: a line of a million fields, a number of
401 digits, values near the float limits, a thousand columns, 5000 groups.
"""

import time

import numpy as np
import pytest

from kpca_core.uploads import MAX_GROUPS, OTHERS, UploadError, parse_points_csv


@pytest.mark.parametrize(
    "data,n,has_labels",
    [
        (b"1,2\n3,4\n5,6\n", 3, False),
        (b"x,y\n1,2\n3,4\n", 2, False),
        (b"x;y;group\n1;2;a\n3;4;b\n5;6;a\n", 3, True),
        (b"\xef\xbb\xbfx,y\n1.5,2e-3\n-3,4\n", 2, False),
        (b"1\t2\n3\t4\n", 2, False),
        (b"1 2\n3  4\n5 6\n", 3, False),
        (b"1,2\r\n3,4\r\n\r\n", 2, False),
    ],
)
def test_good_files(data, n, has_labels):
    parsed = parse_points_csv(data)
    assert parsed.X.shape == (n, 2) and np.all(np.isfinite(parsed.X))
    assert (parsed.labels is not None) == has_labels


def test_group_labels_are_the_names():
    parsed = parse_points_csv(b"1,2,red\n3,4,blue\n5,6,red\n")
    assert parsed.labels.tolist() == ["red", "blue", "red"]
    assert parsed.note is None


def test_group_names_lose_markup():
    parsed = parse_points_csv(b'1,2,<a href="x">y</a>\n3,4,%{x}\n5,6,[a](b)\n')
    assert all(not set("<>{}[]()%") & set(name) for name in parsed.labels)


def test_many_groups_collapse_into_the_largest_and_others():
    rows = [f"{i},{i % 7},g{i}" for i in range(5000)] + [f"{i},1,big" for i in range(30)]
    parsed = parse_points_csv("\n".join(rows).encode(), max_rows=6000)
    names = set(parsed.labels.tolist())
    assert len(names) == MAX_GROUPS + 1 and OTHERS in names and "big" in names
    assert "5001 groups" in parsed.note


@pytest.mark.parametrize(
    "data,message",
    [
        (b"", "empty"),
        (b"   \n\n", "empty"),
        (b"1\n2\n3\n", "only one column"),
        (b"a,b\nc,d\n", "non-numeric"),
        (b"x,y\n1,2\nfoo,4\n", "non-numeric"),
        (b"1,2\n3,nan\n", "missing or non-numeric"),
        (b"1,2\n3,inf\n", "infinite"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00", "not a text file"),
        (b"\xff\xfe1,2", "not UTF-8"),
        (b"x,y\n", "no data rows"),
        (b"1,1\n1,1\n", "same"),
        # issue #14, item 6: a 401-digit number was an OverflowError in the header check
        (b"1" + b"0" * 400 + b",2\n3,4\n", "characters"),
        (b"1" + b"0" * 150 + b",2\n3,4\n", "Rescale"),
        (b"1einf,2\n3,4\n", "non-numeric"),
        (b"1e308,1e308\n-1e308,1e308\n0,0\n5e307,-1e308\n", "Rescale"),
        (b"1e154,2e154\n3e154,1e154\n2e154,2e154\n", "Rescale"),
        (b"1e-300,2e-300\n3e-300,1e-300\n", "Rescale"),
        (b"1,2,3,4\n5,6,7,8\n", "4 columns"),
        (b"1,2\n3,4,5,6\n", "could not be read as CSV"),
    ],
)
def test_bad_files_say_what_is_wrong(data, message):
    with pytest.raises(UploadError, match=message):
        parse_points_csv(data)


def test_a_thousand_columns_are_refused_not_read_as_a_group():
    row = ",".join(str(i) for i in range(1000))
    with pytest.raises(UploadError, match="1000 columns"):
        parse_points_csv(f"{row}\n{row}\n".encode())


def test_too_many_rows_for_the_view():
    data = "\n".join(f"{i},{i}" for i in range(2001)).encode()
    with pytest.raises(UploadError, match="2001 rows; the limit here is 2000"):
        parse_points_csv(data)
    assert parse_points_csv(data, max_rows=2001).X.shape == (2001, 2)


def test_too_many_bytes():
    with pytest.raises(UploadError, match="MB"):
        parse_points_csv(b"1,2\n" * 10, max_bytes=8)


def test_a_line_of_a_million_fields_is_refused_before_parsing():
    """Issue #14, item 2: 2.1 MB in one line took 138 s and was accepted as 2 points.

    Refused at the line check; printed (not asserted: tests never assert
    time) is the parse time against that of a well-formed file of the same size.
    """
    hostile = ",".join(["1"] * 1_050_000).encode() + b"\n3,4\n"
    assert len(hostile) > 2_000_000
    start = time.process_time()
    with pytest.raises(UploadError, match="1050000 columns"):
        parse_points_csv(hostile)
    hostile_s = time.process_time() - start
    start = time.process_time()
    with pytest.raises(UploadError, match="lines"):
        parse_points_csv(b"1.0,2.0\n" * 260_000)
    print(
        f"\n2.1 MB one-line file refused in {hostile_s * 1e3:.1f} ms CPU; "
        f"2.1 MB of short lines in {(time.process_time() - start) * 1e3:.1f} ms CPU"
    )
