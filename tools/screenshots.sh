#!/usr/bin/env bash
# Renders the user guide's screenshots headless (docs/img/): the packet receiver's QT GUI while it
# decodes a file the transmitter wrote, and the receiver flowgraph on the GNU Radio Companion
# canvas. Needs an installed gr-gpufec and the Debian packages xvfb and imagemagick
# (apt-get install xvfb imagemagick). Usage: bash tools/screenshots.sh
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
img="$top/docs/img"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$img" "$work/tx" "$work/rx"
grcc -o "$work/tx" "$top/examples/packet_tx.grc" > /dev/null
grcc -o "$work/rx" "$top/examples/packet_rx.grc" > /dev/null
/usr/bin/python3 "$work/tx/packet_tx.py" -o "$work/link.cf32" -i "$work/link.info" > /dev/null 2>&1

shoot() { # seconds output command...
  local wait=$1 out=$2
  shift 2
  xvfb-run -a -s "-screen 0 1280x1000x24" bash -c '
    "$@" > /dev/null 2>&1 &
    pid=$!
    sleep '"$wait"'
    import -window root '"$out"'
    kill $pid 2> /dev/null || true' _ "$@"
}

# The receiver in a larger window, throttled to its sample rate: the views show live data for
# about 1.6 s.
{
  echo "import sys"
  echo "from PyQt5 import Qt"
  echo "app = Qt.QApplication(sys.argv)"
  echo "sys.path.insert(0, '$work/rx')"
  echo "import packet_rx"
  echo "tb = packet_rx.packet_rx(iq_file='$work/link.cf32', out_file='$work/link.decoded')"
  echo "tb.resize(1100, 800)"
  echo "tb.start()"
  echo "tb.show()"
  echo "app.exec_()"
} > "$work/rx_window.py"
shoot 1.3 "$work/rx_gui.png" /usr/bin/python3 "$work/rx_window.py"
convert "$work/rx_gui.png" -trim "$img/packet_rx_gui.png"

printf '[main]\nmain_window_width = 1280\nmain_window_height = 1000\n' > "$work/grc.conf"
export GRC_PREFS_PATH="$work/grc.conf"
shoot 12 "$work/grc.png" gnuradio-companion "$top/examples/packet_rx.grc"
convert "$work/grc.png" -trim "$img/packet_rx_grc.png"
ls -la "$img"
