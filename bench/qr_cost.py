"""CPU per `POST /api/qr` code drawn, by link length (issue 32: its cost bounded).

    .venv/bin/python -m bench.qr_cost [--calls 20]

Prints, for links of growing size, the process CPU time of one drawing (`segno`, as
`app.web.qr.qr_svg` draws it, cache bypassed) and of a cached one; then whether the
route accepts that link (`app.web.qr.MAX_LINK_BYTES`). The longest link accepted before
the cap was 500 four-byte characters (~2,000 bytes).
"""

import argparse
import time

from app.web.qr import MAX_LINK_BYTES, qr_svg

LINKS = (
    ("room link", "http://192.168.1.20:8000/r/AbCdEfGhIjKlMnOp"),
    ("resume link", "http://192.168.1.20:8000/r/AbCdEfGhIjKlMnOp#t=" + "x" * 32),
    ("128 bytes", "http://" + "a" * 121),
    ("256 bytes (the cap)", "http://" + "a" * 249),
    ("512 bytes", "http://" + "a" * 505),
    ("500 four-byte chars", "http://" + "\U0001f600" * 493),
)


def cpu_ms(call: object, calls: int) -> float:
    assert callable(call)
    start = time.process_time()
    for _ in range(calls):
        call()
    return (time.process_time() - start) / calls * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--calls", type=int, default=20, help="drawings per link (default 20)")
    args = parser.parse_args()
    print(f"{'link':24} {'bytes':>6} {'drawn ms':>9} {'cached ms':>10}  accepted")
    for label, link in LINKS:
        size = len(link.encode())
        drawn = cpu_ms(lambda link=link: qr_svg.__wrapped__(link), args.calls)
        qr_svg(link)
        cached = cpu_ms(lambda link=link: qr_svg(link), args.calls)
        accepted = "yes" if size <= MAX_LINK_BYTES else "no (422)"
        print(f"{label:24} {size:6} {drawn:9.1f} {cached:10.3f}  {accepted}")


if __name__ == "__main__":
    main()
