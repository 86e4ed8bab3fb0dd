"""Uploaded CSVs: good files parse, every bad file gets a message that says what to do."""

import numpy as np
import pytest

from kpca_core.uploads import UploadError, parse_points_csv


@pytest.mark.parametrize(
    "data,n,has_labels",
    [
        (b"1,2\n3,4\n5,6\n", 3, False),
        (b"x,y\n1,2\n3,4\n", 2, False),
        (b"x;y;group\n1;2;a\n3;4;b\n5;6;a\n", 3, True),
        (b"\xef\xbb\xbfx,y\n1.5,2e-3\n-3,4\n", 2, False),
        (b"1\t2\n3\t4\n", 2, False),
        (b"1 2\n3  4\n5 6\n", 3, False),
    ],
)
def test_good_files(data, n, has_labels):
    X, labels = parse_points_csv(data)
    assert X.shape == (n, 2) and np.all(np.isfinite(X))
    assert (labels is not None) == has_labels


def test_group_labels_are_codes():
    _, labels = parse_points_csv(b"1,2,red\n3,4,blue\n5,6,red\n")
    assert labels.tolist() == [0, 1, 0]


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
    ],
)
def test_bad_files_say_what_is_wrong(data, message):
    with pytest.raises(UploadError, match=message):
        parse_points_csv(data)


def test_too_many_rows():
    data = "\n".join(f"{i},{i}" for i in range(5001)).encode()
    with pytest.raises(UploadError, match="5001 rows; the limit is 5000"):
        parse_points_csv(data)


def test_too_many_bytes():
    with pytest.raises(UploadError, match="MB"):
        parse_points_csv(b"1,2\n" * 10, max_bytes=8)
