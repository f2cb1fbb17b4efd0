"""crdesk's Qt front end.

This package sits above the Qt-free core (``crdesk``): it imports the core and
projects its model onto Qt widgets; the core never imports anything from here.
"""
