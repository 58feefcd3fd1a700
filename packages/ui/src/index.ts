export { ThemeProvider } from './theme/theme-provider';
export { getCssText, getThemeClassName } from './theme/stitches.config';
export {
  breakpoints,
  lightThemeTokens,
  themeTokens,
  TOKEN_PREFIX,
  tokens,
  tokenVars,
} from './theme/tokens';
export { Box, Container, Flex, Heading, Stack, Text } from './layout/primitives';
export { VisuallyHidden } from './layout/visually-hidden';
export { Mark } from './layout/mark';
export { Button, ButtonLink, IconButton } from './controls/button';
export { MASKED_PLACEHOLDER, PasswordField, TextArea, TextField } from './controls/text-field';
export { CloseIcon, EyeIcon, EyeOffIcon } from './controls/icons';
export { Divider } from './layout/divider';
export { Dialog, DIALOG_TRANSITION_MS, ESCAPE_SHAKE_MS } from './feedback/dialog';
export { Sheet } from './feedback/sheet';
export { Meter } from './feedback/meter';
export { NOTIFICATION_MS, Toaster } from './feedback/toast';
export { LoadingOverlay, Spinner } from './feedback/loading-overlay';
export { AuthPopup } from './auth/auth-popup';
export { Chip, Tag } from './controls/chip';
export { Avatar } from './catalog/avatar';
export { MateCard, MateCardSkeleton } from './catalog/mate-card';
export { MateGrid } from './catalog/mate-grid';
export { EmptyState } from './feedback/empty-state';
export { Header } from './shell/header';
export { Balances } from './shell/balances';
export { Footer } from './shell/footer';
export { AppFrame } from './shell/app-frame';
export { ChatBubble } from './chat/chat-bubble';
export { ChatComposer } from './chat/chat-composer';
export { SpeakerLabel } from './chat/speaker-label';
export { GroupPortrait } from './chat/group-portrait';
export { CallStage } from './call/call-stage';
export { CallCaptions } from './call/call-captions';
export { CallControls } from './call/call-controls';
export { Switch } from './controls/switch';
export { Select } from './controls/select';
export { ImageChoices } from './controls/image-choices';
export { Tabs } from './controls/tabs';
export { Tooltip } from './controls/tooltip';
export { Rating } from './controls/rating';
export { AudioPlayButton } from './controls/audio-play-button';
export { Card, Grid, Link } from './layout/more-layout';
export { ScrollArea } from './layout/scroll-area';
export { Docked, FillHeight, FillRest } from './layout/docked';
export { NarrowOnly, SideLink, SideView, WideOnly } from './layout/side-view';
export { MoreMenu } from './layout/more-menu';
export { SearchField } from './catalog/search-field';
export { PackageCard } from './catalog/package-card';
export { formatPrice } from './catalog/format-price';

export type { ThemeProviderProps } from './theme/theme-provider';
export type { ThemeName, Tokens, TokenScale } from './theme/tokens';
export type {
  BoxProps,
  ContainerProps,
  FlexProps,
  HeadingProps,
  StackProps,
  TextProps,
} from './layout/primitives';
export type { VisuallyHiddenProps } from './layout/visually-hidden';
export type { MarkProps } from './layout/mark';
export type { ButtonLinkProps, ButtonProps, IconButtonProps } from './controls/button';
export type { PasswordFieldProps, TextAreaProps, TextFieldProps } from './controls/text-field';
export type { DividerProps } from './layout/divider';
export type { DialogProps } from './feedback/dialog';
export type { SheetProps } from './feedback/sheet';
export type { MeterProps } from './feedback/meter';
export type { ToasterLabels, ToasterProps, ToastNotice } from './feedback/toast';
export type { LoadingOverlayProps, SpinnerProps } from './feedback/loading-overlay';
export type { AuthPopupLabels, AuthPopupProps } from './auth/auth-popup';
export type { ChipProps, TagProps } from './controls/chip';
export type { AvatarProps } from './catalog/avatar';
export type { MateCardLabels, MateCardProps } from './catalog/mate-card';
export type { MateGridProps } from './catalog/mate-grid';
export type { EmptyStateProps } from './feedback/empty-state';
export type { HeaderLabels, HeaderProps } from './shell/header';
export type { BalancesProps } from './shell/balances';
export type { FooterLink, FooterProps } from './shell/footer';
export type { AppFrameProps } from './shell/app-frame';
export type { ChatBubbleLabels, ChatBubbleProps } from './chat/chat-bubble';
export type { ChatComposerLabels, ChatComposerProps } from './chat/chat-composer';
export type { SpeakerLabelProps } from './chat/speaker-label';
export type { GroupPortraitProps } from './chat/group-portrait';
export type { CallSpeaker, CallStageLabels, CallStageProps } from './call/call-stage';
export type { CallCaptionLine, CallCaptionsLabels, CallCaptionsProps } from './call/call-captions';
export type { CallControlsLabels, CallControlsProps } from './call/call-controls';
export type { SwitchProps } from './controls/switch';
export type { SelectOption, SelectProps } from './controls/select';
export type { ImageChoice, ImageChoicesProps } from './controls/image-choices';
export type { TabItem, TabsProps } from './controls/tabs';
export type { TooltipProps } from './controls/tooltip';
export type { RatingProps } from './controls/rating';
export type {
  AudioPlayButtonProps,
  AudioPlayButtonLabels,
  AudioPlayState,
} from './controls/audio-play-button';
export type { CardProps, GridProps, LinkProps } from './layout/more-layout';
export type { ScrollAreaProps } from './layout/scroll-area';
export type { DockedProps, FillHeightProps } from './layout/docked';
export type {
  NarrowOnlyProps,
  SideLinkProps,
  SideViewProps,
  WideOnlyProps,
} from './layout/side-view';
export type { MoreMenuProps } from './layout/more-menu';
export type { SearchFieldProps } from './catalog/search-field';
export type { PackageCardLabels, PackageCardProps } from './catalog/package-card';
