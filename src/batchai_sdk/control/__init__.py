"""The control share: its layout and the JSON records clients and node agents exchange (stdlib only).

Everything here is pure: path builders and record codecs. The node agent reads and writes these paths
on a mounted directory; the clients go through an engine's store. Both use the same names.
"""
