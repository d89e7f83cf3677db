import nock from 'nock';

// Tests reach only loopback; anything else is a bug in the test or the code.
nock.disableNetConnect();
nock.enableNetConnect(/^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/);
