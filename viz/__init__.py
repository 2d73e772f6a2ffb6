"""Visualisation of symbolic graphs (mx.viz): plot_network and print_summary."""
