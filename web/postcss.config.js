// Mantine's PostCSS preset (rem/em functions, light-dark, breakpoint mixins).
export default {
  plugins: {
    'postcss-preset-mantine': {},
  },
};
